/**
 * Deployment settings, read from the environment. `sst` loads `.env` and `.env.<stage>` next to
 * `sst.config.ts` into the environment, so a stage's settings can live there too.
 */

/** Where the claim store lives: a table per Region with TTL, or one MRSC global table. */
export type ClaimMode = "home" | "mrsc";

/** The role of a Region in the deployment. */
export type RegionRole = "primary" | "standby";

/** The Regions of the deployment; the only settings `app()` needs (no JWT settings required there). */
export interface Regions {
  primary: string;
  standby: string;
  /** The MRSC witness Region (used in `mrsc` claim mode only). */
  witness: string;
}

/** Every setting the stacks read. */
export interface InfraConfig {
  stage: string;
  /** `production` stages retain data on removal and turn on deletion protection. */
  production: boolean;
  regions: Regions;
  claimMode: ClaimMode;
  /** The Region that takes writes and relays (ACTIVE_REGION); the other stays passive until promoted. */
  /** The active Region written into each Region control table when it is created; failovers change it at run time. */
  activeRegion: "primary" | "standby";
  jwt: { issuer: string; audience: string };
  /** The SES identity: an email address, or a domain (then its DNS records go to Route 53). */
  emailSender: string;
  /** The From address handlers use (EMAIL_FROM). */
  emailFrom: string;
  /** The SNS APNs platform: `APNS` for production stages, `APNS_SANDBOX` otherwise. */
  apnsPlatform: "APNS" | "APNS_SANDBOX";
  /** Handler tunables passed as plain environment variables. */
  tunables: {
    deadlineMs: number;
    keyWindowS: number;
    /** Our share of the PSP's rate limits (requests/s), from the deployer's environment: ask the PSP for yours. */
    pspRatePerS: number;
    pspEndpointRatePerS: number;
    resolverRatePerS: number;
  };
}

/** The stage whose resources are retained and deletion-protected. */
export const PRODUCTION_STAGE = "production";

/** Whether a stage is a production stage. */
export function isProduction(stage: string | undefined): boolean {
  return stage === PRODUCTION_STAGE;
}

const REGION = /^[a-z]{2}(-gov)?-[a-z]+-\d$/;

/** Reads and validates the Regions (PRIMARY_REGION, STANDBY_REGION, WITNESS_REGION). */
export function readRegions(env: NodeJS.ProcessEnv = process.env): Regions {
  const regions = {
    primary: env.PRIMARY_REGION || "us-east-1",
    standby: env.STANDBY_REGION || "us-west-2",
    witness: env.WITNESS_REGION || "us-east-2",
  };
  for (const [name, value] of Object.entries(regions)) {
    if (!REGION.test(value))
      throw new Error(`${name.toUpperCase()}_REGION="${value}" is not an AWS Region name`);
  }
  if (new Set(Object.values(regions)).size !== 3) {
    throw new Error(
      `PRIMARY_REGION, STANDBY_REGION and WITNESS_REGION must differ (got ${Object.values(regions).join(", ")})`,
    );
  }
  return regions;
}

/** Reads and validates every setting for a stage. */
export function readConfig(stage: string, env: NodeJS.ProcessEnv = process.env): InfraConfig {
  const claimMode = env.CLAIM_MODE || "home";
  if (claimMode !== "home" && claimMode !== "mrsc") {
    throw new Error(`CLAIM_MODE must be "home" or "mrsc", not "${claimMode}"`);
  }
  const activeRegion = env.ACTIVE_REGION || "primary";
  if (activeRegion !== "primary" && activeRegion !== "standby") {
    throw new Error(`ACTIVE_REGION must be "primary" or "standby", not "${activeRegion}"`);
  }
  const issuer = env.JWT_ISSUER;
  if (!issuer || !/^https:\/\/\S+$/.test(issuer)) {
    throw new Error(
      "Set JWT_ISSUER to your identity provider's https issuer URL (API Gateway reads its OIDC discovery document)",
    );
  }
  const emailSender = env.EMAIL_SENDER || "receipts@example.com";
  const production = isProduction(stage);
  const apnsPlatform = env.APNS_PLATFORM || (production ? "APNS" : "APNS_SANDBOX");
  if (apnsPlatform !== "APNS" && apnsPlatform !== "APNS_SANDBOX") {
    throw new Error(`APNS_PLATFORM must be "APNS" or "APNS_SANDBOX", not "${apnsPlatform}"`);
  }
  return {
    stage,
    production,
    regions: readRegions(env),
    claimMode,
    activeRegion,
    jwt: { issuer, audience: env.JWT_AUDIENCE || "payments-api" },
    emailSender,
    emailFrom: emailSender.includes("@") ? emailSender : `receipts@${emailSender}`,
    apnsPlatform,
    tunables: {
      deadlineMs: 5000,
      keyWindowS: 3600,
      pspRatePerS: ratePerS(env, "PSP_RATE_PER_S", 90),
      pspEndpointRatePerS: ratePerS(env, "PSP_ENDPOINT_RATE_PER_S", 22),
      resolverRatePerS: ratePerS(env, "RESOLVER_RATE_PER_S", 10),
    },
  };
}

/** A rate cap from the deployer's environment, or its default; anything but a positive number stops the deploy. */
function ratePerS(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0)
    throw new Error(`${name} must be a positive number of requests/s, not "${raw}"`);
  return n;
}

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
