/**
 * The SST secrets of the app; set each per stage with `npx sst secret set <Name> <value> --stage <stage>`.
 * `PspApiKey` and `PspWebhookSecret` reach a function only through its link (sealed in its bundle), and only the
 * handlers whose manifest entry declares `pspSecret` are linked; no function has them in its plain environment.
 */
export interface Secrets {
  pspUrl: sst.Secret;
  pspApiKey: sst.Secret;
  pspWebhookSecret: sst.Secret;
  /** APNs token signing key (.p8 contents), its key id, team id and app bundle id. */
  apnsSigningKey: sst.Secret;
  apnsKeyId: sst.Secret;
  apnsTeamId: sst.Secret;
  apnsBundleId: sst.Secret;
  /** FCM HTTP v1 service account JSON. */
  fcmServiceAccount: sst.Secret;
}

/** Declares the app's secrets (shared by both Regions). */
export function createSecrets(): Secrets {
  return {
    pspUrl: new sst.Secret("PspUrl"),
    pspApiKey: new sst.Secret("PspApiKey"),
    pspWebhookSecret: new sst.Secret("PspWebhookSecret"),
    apnsSigningKey: new sst.Secret("ApnsSigningKey"),
    apnsKeyId: new sst.Secret("ApnsKeyId"),
    apnsTeamId: new sst.Secret("ApnsTeamId"),
    apnsBundleId: new sst.Secret("ApnsBundleId"),
    fcmServiceAccount: new sst.Secret("FcmServiceAccount"),
  };
}
