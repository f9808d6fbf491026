import { isDeploymentName } from "../payment/stripe-deployment";
import { type PspDialect, pspDialectOf, STRIPE_API_URL } from "./psp-dialect";
import { pspSecret } from "./psp-secrets";
import {
  type ClaimMode,
  ConfigError,
  claimModeOf,
  type RegionRole,
  readRequired,
  regionRoleOf,
} from "./switches";

export * from "./invocation-links";
export * from "./psp-dialect";
export * from "./psp-secrets";
export * from "./switches";

/** Everything a handler needs to know about its environment, read once from plain variables. */
export interface AppConfig extends Tunables {
  region: string;
  regionRole: RegionRole;
  /**
   * The Region authority's table: which Region takes writes and runs the relay, resolver and sweeps (one at a
   * time, the home-Region rule of Part 9). It is data, read at run time, never a variable.
   */
  controlTable: string;
  /** Where the authority is reached when not in this Region (CONTROL_MODE=single-region, and locally). */
  controlRegion?: string;
  /** Local only: the endpoint through which this Region reaches the authority (a link a partition can cut). */
  controlEndpoint?: string;
  claimTable: string;
  /** Where the claim table is reached, when not this Region (the local stack's MRSC mode; never set in AWS). */
  claimRegion?: string;
  ledgerTable: string;
  consumerTable: string;
  eventsQueueUrl: string;
  claimMode: ClaimMode;
  /** The dialect the stage's PSP speaks (env PSP, `generic` by default): which adapter calls it, which webhooks come. */
  psp: PspDialect;
  /**
   * The deployment's name (env DEPLOYMENT_NAME; the stacks set `{app}-{stage}`): on a Stripe account that several
   * stages share, it goes into every object's metadata and key, lookups filter on it, and another's events are
   * ignored. Absent: one deployment per account, keys exactly as the contract derives them.
   */
  deployment?: string;
  /** The PSP's API (required for `generic`; for `stripe` it defaults to Stripe's own, the local fake sets it). */
  pspUrl: string;
  /**
   * Read on use (the SST link in AWS, PSP_API_KEY or, on a Stripe stage, STRIPE_SECRET_KEY locally): a function
   * without the link throws only if it calls the PSP.
   */
  readonly pspApiKey: string;
  /** Read on use (the SST link in AWS, PSP_WEBHOOK_SECRET locally), like the API key: `Psp-Signature` webhooks. */
  readonly pspWebhookSecret: string;
  /** Read on use (the SST link StripeWebhookSecret, STRIPE_WEBHOOK_SECRET locally): `Stripe-Signature` webhooks. */
  readonly stripeWebhookSecret: string;
}

/** The numbers a deployment may tune; each has a shipped default. */
export interface Tunables {
  /** The server deadline counted from the arrival stamp (Part 4). */
  deadlineMs: number;
  /** The worst offset between the stamping clock and ours; the deadline is cut by it. */
  clockMarginMs: number;
  /** How long after a lease ends a takeover may happen (Part 3: larger than any clock offset). */
  takeoverMarginMs: number;
  /** The key record's window: an accelerator, never the guard. */
  keyWindowS: number;
  /** Our share of the PSP's rate limits (requests/s): per account, per endpoint, and the resolver's own cap. */
  pspRatePerS: number;
  pspEndpointRatePerS: number;
  resolverRatePerS: number;
  /** The longest a live request waits for a PSP slot before it answers 503 with Retry-After. */
  pspBudgetMaxWaitMs: number;
  /** How far ahead a payment refused at the cap may book its PSP slot (the fair queue's length in time). */
  pspBookingHorizonS: number;
  /** How long the PSP remembers an idempotency key (Stripe: at least 24 h). */
  pspKeyWindowS: number;
  /** How long after a charge attempt "not found by our reference" is taken as no charge (an index may lag). */
  pspNotFoundSettleS: number;
  /**
   * How long after a charge attempt a saved or final 5xx whose lookup finds nothing is taken as no charge: the PSP
   * may still be finishing the request, so hours rather than the not-found settle's minutes (the reconcile confirms).
   */
  pspSaved5xxSettleS: number;
  /** How long a Region reuses its read of the Region control to decide whether to relay and run its jobs. */
  controlCacheMs: number;
  /** How stale that read may be when a write is checked against it (the fence); the failover's drain waits longer. */
  fenceCacheMs: number;
  /** The most of a request's time its one read of the authority may take (it gets half of what is left, up to this). */
  authorityReadMs: number;
  /** The longest timeout of any function that acts (the failover waits it out before the new Region acts). */
  functionTimeoutMs: number;
  /** The longest one delivery runs (the relay's timeout): a drained Region stops delivering this long before the switch. */
  deliveryTimeoutMs: number;
}

/** Where the function's resources are: no default could be right (the Region, the tables, the queue, the PSP). */
export const RESOURCE_ENV = [
  "AWS_REGION",
  "CONTROL_TABLE",
  "CLAIM_TABLE",
  "LEDGER_TABLE",
  "CONSUMER_TABLE",
  "EVENTS_QUEUE_URL",
  "PSP_URL",
] as const;
/** The safety switches: each accepts only its allowed values, and has no default. */
export const SWITCH_ENV = ["REGION_ROLE", "CLAIM_MODE"] as const;
/** The variables loadConfig cannot do without (besides the PSP secrets, which are read on use). */
export const REQUIRED_ENV = [...RESOURCE_ENV, ...SWITCH_ENV] as const;

/**
 * Reads the configuration from environment variables. The switches and the resources have no default (a
 * missing or odd value throws a ConfigError naming the variable); only the tunables fall back to the shipped values.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const psp = pspDialectOf(env);
  return {
    region: readRequired(env, "AWS_REGION"),
    regionRole: regionRoleOf(env),
    controlTable: readRequired(env, "CONTROL_TABLE"),
    ...(env.CONTROL_TABLE_REGION ? { controlRegion: env.CONTROL_TABLE_REGION } : {}),
    ...(env.CONTROL_ENDPOINT_URL ? { controlEndpoint: env.CONTROL_ENDPOINT_URL } : {}),
    claimTable: readRequired(env, "CLAIM_TABLE"),
    ...(env.CLAIM_TABLE_REGION ? { claimRegion: env.CLAIM_TABLE_REGION } : {}),
    ledgerTable: readRequired(env, "LEDGER_TABLE"),
    consumerTable: readRequired(env, "CONSUMER_TABLE"),
    eventsQueueUrl: readRequired(env, "EVENTS_QUEUE_URL"),
    claimMode: claimModeOf(env),
    ...deploymentOf(env),
    psp,
    pspUrl: psp === "stripe" && !env.PSP_URL?.trim() ? STRIPE_API_URL : readRequired(env, "PSP_URL"),
    get pspApiKey() {
      return pspSecret(psp === "stripe" ? "stripeSecretKey" : "apiKey", env);
    },
    get pspWebhookSecret() {
      return pspSecret("webhookSecret", env);
    },
    get stripeWebhookSecret() {
      return pspSecret("stripeWebhookSecret", env);
    },
    ...loadTunables(env),
  };
}

function deploymentOf(env: NodeJS.ProcessEnv): { deployment?: string } {
  const name = env.DEPLOYMENT_NAME?.trim();
  if (!name) return {};
  if (!isDeploymentName(name))
    throw new ConfigError(
      `DEPLOYMENT_NAME=${name} must be 1 to 63 letters, digits, - or _ (it goes into Stripe metadata and keys)`,
    );
  return { deployment: name };
}

/** The tunables from the environment, each with its shipped default. */
export function loadTunables(env: NodeJS.ProcessEnv = process.env): Tunables {
  return {
    deadlineMs: num(env, "DEADLINE_MS", DEFAULT_DEADLINE_MS),
    clockMarginMs: num(env, "CLOCK_MARGIN_MS", DEFAULT_CLOCK_MARGIN_MS),
    takeoverMarginMs: num(env, "TAKEOVER_MARGIN_MS", 1_000),
    keyWindowS: num(env, "KEY_WINDOW_S", 3_600),
    // 90 % of Stripe's default 100/s per account and 25/s per endpoint: the rest absorbs network jitter
    // (the PSP counts a sliding second as requests arrive) and other users of the same account.
    pspRatePerS: num(env, "PSP_RATE_PER_S", 90),
    pspEndpointRatePerS: num(env, "PSP_ENDPOINT_RATE_PER_S", 22),
    resolverRatePerS: num(env, "RESOLVER_RATE_PER_S", 10),
    pspBudgetMaxWaitMs: num(env, "PSP_BUDGET_MAX_WAIT_MS", 1_000),
    // A minute of the PSP's rate: the phone's horizon (45 to 60 s), beyond which a place is of no use to anyone.
    pspBookingHorizonS: num(env, "PSP_BOOKING_HORIZON_S", 60),
    pspKeyWindowS: num(env, "PSP_KEY_WINDOW_S", 86_400),
    pspNotFoundSettleS: num(env, "PSP_NOT_FOUND_SETTLE_S", 600),
    pspSaved5xxSettleS: num(env, "PSP_SAVED_5XX_SETTLE_S", 4 * 3_600),
    controlCacheMs: num(env, "REGION_CONTROL_CACHE_MS", 2_000),
    fenceCacheMs: num(env, "REGION_FENCE_CACHE_MS", 250),
    // Far above a strongly consistent MRSC read (one round trip to the nearest Region of the set), far below the
    // deadline: an authority that does not answer within it makes the request a 503 region-passive, not a timeout.
    authorityReadMs: num(env, "REGION_AUTHORITY_READ_MS", 2_000),
    // The stacks' longest function timeout (stacks/handlers.ts: 30 s).
    functionTimeoutMs: num(env, "FUNCTION_TIMEOUT_MS", 30_000),
    // The relay's timeout in stacks/handlers.ts (the worker's is 20 s): DELIVERY_TIMEOUT_MS in delivery-window.ts.
    deliveryTimeoutMs: num(env, "DELIVERY_TIMEOUT_MS", 30_000),
  };
}

export const DEFAULT_DEADLINE_MS = 5_000;
export const DEFAULT_CLOCK_MARGIN_MS = 250;
/** The phone's timeout in the design (Part 0): the server deadline must end well before it. */
export const CLIENT_TIMEOUT_MS = 10_000;
/** The longest wait before the arrival stamp: API Gateway stamps on arrival, so only the network trip. */
export const MAX_WAIT_BEFORE_STAMP_MS = 500;

function num(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`${name}=${raw} must be a positive number`);
  return n;
}
