/**
 * Deployment settings, read from the environment. `sst` loads `.env` and `.env.<stage>` next to
 * `sst.config.ts` into the environment, so a stage's settings can live there too.
 */

import { assertMrscRegionSet } from "./mrsc-region-sets";
import { stageIsProduction } from "./stage-kind";

/** Where the claim store lives: a table per Region with TTL, or one MRSC global table. */
export type ClaimMode = "home" | "mrsc";

/**
 * Where the Region authority (the active Region and its epoch) lives: one MRSC global table (replicas in both
 * Regions + a witness), or, where the Regions form no MRSC Region set, one ordinary table in WITNESS_REGION.
 */
export type ControlMode = "mrsc" | "single-region";

/** The dialect the stage's PSP speaks: the fake's generic one, or Stripe's (through its SDK; test or live mode). */
export type PspDialect = "generic" | "stripe";

/** The role of a Region in the deployment. */
export type RegionRole = "primary" | "standby";

/** The Regions of the deployment; the only settings `app()` needs (no JWT settings required there). */
export interface Regions {
  primary: string;
  standby: string;
  /** The third Region: the MRSC witness (control and claim tables), or the home of the `single-region` control table. */
  witness: string;
}

/** Every setting the stacks read. */
export interface InfraConfig {
  stage: string;
  /** Production stages (stacks/stage-kind.ts) retain data on removal and turn on deletion protection. */
  production: boolean;
  regions: Regions;
  claimMode: ClaimMode;
  controlMode: ControlMode;
  /** PSP=stripe|generic (default generic): the functions' PSP adapter and webhooks, and which PSP secrets exist. */
  psp: PspDialect;
  /** The active Region the authority's first item names (ACTIVE_REGION); failovers change it at run time. */
  activeRegion: "primary" | "standby";
  jwt: { issuer: string; audience: string };
  /** The SES identity: an email address, or a domain (then its DNS records go to Route 53). */
  emailSender: string;
  /** The From address handlers use (EMAIL_FROM). */
  emailFrom: string;
  /** The SNS APNs platform: `APNS` for production stages, `APNS_SANDBOX` otherwise. */
  apnsPlatform: "APNS" | "APNS_SANDBOX";
  /** Who each Region's on-call topic pages (stacks/on-call.ts): an email address and/or an HTTPS endpoint. */
  onCall: OnCallSubscribers;
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

/** The on-call subscriptions of each Region's alarm topic (ONCALL_EMAIL, ONCALL_HTTPS_URL). */
export interface OnCallSubscribers {
  email?: string;
  httpsUrl?: string;
}

/**
 * Whether a stage is production (stacks/stage-kind.ts): `production`, or any stage with STAGE_KIND=production. A name
 * that looks like production (`prod`, `prd`, `live`, `production-eu`, …) without STAGE_KIND stops the deploy.
 */
export function isProduction(stage: string | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  return stageIsProduction(stage, env);
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
  const controlMode = env.CONTROL_MODE || "mrsc";
  if (controlMode !== "mrsc" && controlMode !== "single-region") {
    throw new Error(`CONTROL_MODE must be "mrsc" or "single-region", not "${controlMode}"`);
  }
  const psp = env.PSP || "generic";
  if (psp !== "generic" && psp !== "stripe") {
    throw new Error(`PSP must be "generic" or "stripe", not "${psp}"`);
  }
  const regions = readRegions(env);
  // An MRSC table across Region sets fails only at deploy time, half built: refuse it before anything is created.
  if (controlMode === "mrsc") {
    assertMrscRegionSet("CONTROL_MODE=mrsc (the Region authority)", regions, "CONTROL_MODE=single-region");
  }
  if (claimMode === "mrsc") assertMrscRegionSet("CLAIM_MODE=mrsc", regions, "CLAIM_MODE=home");
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
  const emailSender = readEmailSender(env);
  const production = isProduction(stage, env);
  const apnsPlatform = readApnsPlatform(env, production);
  return {
    stage,
    production,
    regions,
    claimMode,
    controlMode,
    psp,
    activeRegion,
    jwt: { issuer, audience: env.JWT_AUDIENCE || "payments-api" },
    emailSender,
    emailFrom: emailSender.includes("@") ? emailSender : `receipts@${emailSender}`,
    apnsPlatform,
    onCall: readOnCall(env, production),
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

const ADDRESS = /^[^\s@]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/i;
const DOMAIN = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i;

/** EMAIL_SENDER, required like JWT_ISSUER: no default address could ever be verified in SES. */
function readEmailSender(env: NodeJS.ProcessEnv): string {
  const sender = env.EMAIL_SENDER;
  if (!sender) {
    throw new Error(
      "Set EMAIL_SENDER to the address or domain receipts are sent from: an SES identity you verify in both Regions " +
        "(a domain gets its DNS records in its Route 53 hosted zone, which must exist in this account)",
    );
  }
  if (!ADDRESS.test(sender) && !DOMAIN.test(sender))
    throw new Error(`EMAIL_SENDER="${sender}" is neither an email address nor a domain name`);
  return sender;
}

/** The APNs platform: production stages' apps carry production device tokens, which the sandbox rejects. */
function readApnsPlatform(env: NodeJS.ProcessEnv, production: boolean): "APNS" | "APNS_SANDBOX" {
  const platform = env.APNS_PLATFORM || (production ? "APNS" : "APNS_SANDBOX");
  if (platform !== "APNS" && platform !== "APNS_SANDBOX")
    throw new Error(`APNS_PLATFORM must be "APNS" or "APNS_SANDBOX", not "${platform}"`);
  if (production && platform === "APNS_SANDBOX") {
    throw new Error(
      "APNS_PLATFORM=APNS_SANDBOX on a production stage: the sandbox rejects production device tokens (SNS disables each endpoint)",
    );
  }
  return platform;
}

/**
 * Who the on-call topics page: ONCALL_EMAIL (an address; SNS mails it a confirmation link per Region) and/or
 * ONCALL_HTTPS_URL (an https endpoint, e.g. a paging service's SNS integration URL). A production stage needs one.
 */
function readOnCall(env: NodeJS.ProcessEnv, production: boolean): OnCallSubscribers {
  const email = env.ONCALL_EMAIL || undefined;
  const httpsUrl = env.ONCALL_HTTPS_URL || undefined;
  if (email !== undefined && !ADDRESS.test(email))
    throw new Error(`ONCALL_EMAIL="${email}" is not an email address`);
  if (httpsUrl !== undefined && !isHttpsUrl(httpsUrl))
    throw new Error(`ONCALL_HTTPS_URL="${httpsUrl}" is not an https:// URL`);
  if (production && !email && !httpsUrl) {
    throw new Error(
      "A production stage's alarms must page someone: set ONCALL_EMAIL and/or ONCALL_HTTPS_URL (the on-call topic's subscriptions)",
    );
  }
  return { ...(email ? { email } : {}), ...(httpsUrl ? { httpsUrl } : {}) };
}

function isHttpsUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === "https:" && url.hostname !== "";
  } catch {
    return false;
  }
}
