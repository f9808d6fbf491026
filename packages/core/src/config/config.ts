/** Where the claim store lives: a table per Region with TTL, or one multi-Region strongly consistent table. */
export type ClaimMode = "home" | "mrsc";

/** Everything a handler needs to know about its environment, read once from plain variables. */
export interface AppConfig {
  region: string;
  regionRole: "primary" | "standby";
  /**
   * Whether this Region takes writes and runs the relay, resolver and sweeps. One Region is active at a
   * time (the home-Region rule, Part 9); the standby stays passive until it is promoted.
   */
  regionActive: boolean;
  claimTable: string;
  ledgerTable: string;
  consumerTable: string;
  eventsQueueUrl: string;
  claimMode: ClaimMode;
  /** The server deadline counted from the arrival stamp (Part 4). */
  deadlineMs: number;
  /** The worst offset between the stamping clock and ours; the deadline is cut by it. */
  clockMarginMs: number;
  /** How long after a lease ends a takeover may happen (Part 3: larger than any clock offset). */
  takeoverMarginMs: number;
  /** The key record's window: an accelerator, never the guard. */
  keyWindowS: number;
  resolverRatePerS: number;
  /** How long the PSP remembers an idempotency key (Stripe: at least 24 h). */
  pspKeyWindowS: number;
  pspUrl: string;
  pspApiKey: string;
  pspWebhookSecret: string;
}

/** Reads the configuration from environment variables, with the shipped defaults. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const mode = env.CLAIM_MODE ?? "home";
  if (mode !== "home" && mode !== "mrsc") throw new Error(`CLAIM_MODE must be home or mrsc, not ${mode}`);
  return {
    region: env.AWS_REGION ?? "us-east-1",
    regionRole: env.REGION_ROLE === "standby" ? "standby" : "primary",
    regionActive: isRegionActive(env),
    claimTable: env.CLAIM_TABLE ?? "claims",
    ledgerTable: env.LEDGER_TABLE ?? "ledger",
    consumerTable: env.CONSUMER_TABLE ?? "consumer",
    eventsQueueUrl: env.EVENTS_QUEUE_URL ?? "",
    claimMode: mode,
    deadlineMs: num(env, "DEADLINE_MS", DEFAULT_DEADLINE_MS),
    clockMarginMs: num(env, "CLOCK_MARGIN_MS", DEFAULT_CLOCK_MARGIN_MS),
    takeoverMarginMs: num(env, "TAKEOVER_MARGIN_MS", 1_000),
    keyWindowS: num(env, "KEY_WINDOW_S", 3_600),
    resolverRatePerS: num(env, "RESOLVER_RATE_PER_S", 10),
    pspKeyWindowS: num(env, "PSP_KEY_WINDOW_S", 86_400),
    pspUrl: env.PSP_URL ?? "http://127.0.0.1:3001",
    pspApiKey: env.PSP_API_KEY ?? "sk_local",
    pspWebhookSecret: env.PSP_WEBHOOK_SECRET ?? "whsec_local",
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
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name}=${raw} must be a positive number`);
  return n;
}

/** Whether this Region is the active one (env REGION_ACTIVE, "true" unless set to "false"). */
export function isRegionActive(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.REGION_ACTIVE !== "false";
}
