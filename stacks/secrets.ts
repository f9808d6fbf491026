import type { PspDialect } from "./config";

/**
 * The SST secrets of the app; set each per stage with `npx sst secret set <Name> <value> --stage <stage>`.
 * The PSP's secrets are those of the stage's dialect (PSP in stacks/config.ts), and only those are declared, so a
 * stage sets only its own: `PspUrl`, `PspApiKey`, `PspWebhookSecret` for the generic dialect; `StripeSecretKey` and
 * `StripeWebhookSecret` for Stripe (its URL is Stripe's API). Each reaches a function only through its link (sealed
 * in its bundle), and only the handlers whose manifest entry declares `pspSecret` are linked; no function has them
 * in its plain environment.
 */
export interface Secrets {
  /** The PSP secrets of the stage's dialect. */
  psp: PspSecrets;
  /** APNs token signing key (.p8 contents), its key id, team id and app bundle id. */
  apnsSigningKey: sst.Secret;
  apnsKeyId: sst.Secret;
  apnsTeamId: sst.Secret;
  apnsBundleId: sst.Secret;
  /** FCM HTTP v1 service account JSON. */
  fcmServiceAccount: sst.Secret;
}

/** A stage's PSP secrets: where the PSP is (generic only), its API key, and the signing secret of its webhooks. */
export type PspSecrets =
  | { dialect: "generic"; pspUrl: sst.Secret; apiKey: sst.Secret; webhookSecret: sst.Secret }
  | { dialect: "stripe"; apiKey: sst.Secret; webhookSecret: sst.Secret };

/** Declares the app's secrets (shared by both Regions); the PSP's are those of the stage's dialect only. */
export function createSecrets(dialect: PspDialect): Secrets {
  return {
    psp: createPspSecrets(dialect),
    apnsSigningKey: new sst.Secret("ApnsSigningKey"),
    apnsKeyId: new sst.Secret("ApnsKeyId"),
    apnsTeamId: new sst.Secret("ApnsTeamId"),
    apnsBundleId: new sst.Secret("ApnsBundleId"),
    fcmServiceAccount: new sst.Secret("FcmServiceAccount"),
  };
}

function createPspSecrets(dialect: PspDialect): PspSecrets {
  if (dialect === "stripe")
    return {
      dialect,
      apiKey: new sst.Secret("StripeSecretKey"),
      webhookSecret: new sst.Secret("StripeWebhookSecret"),
    };
  return {
    dialect,
    pspUrl: new sst.Secret("PspUrl"),
    apiKey: new sst.Secret("PspApiKey"),
    webhookSecret: new sst.Secret("PspWebhookSecret"),
  };
}
