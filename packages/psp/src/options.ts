import { type Clock, clock, peekFault, takeFault } from "@eo/core";
import type { Dialect } from "./dialect-name";
import type { WebhookEvent } from "./events";
import type { ChargeSummary, RefundSummary } from "./ledger";
import type { PspStats } from "./stats";
import type { IntentSeed } from "./stripe/intent-seed";

/** The faults the fake PSP consults, a subset of the names `@eo/core` arms. */
export type PspFaultName =
  | "psp_lose_reply"
  | "psp_delay_ms"
  | "psp_fail"
  | "psp_refund_refuse"
  | "psp_refund_pending"
  | "psp_intent_processing"
  | "psp_search_lag"
  | "psp_index_lag_ms"
  | "psp_lookup_delay_ms"
  | "psp_outage_ms"
  | "psp_latency_p50_ms"
  | "psp_latency_p99_ms"
  | "psp_lose_reply_rate"
  | "psp_rate_limit"
  | "psp_webhook_early"
  | "psp_webhook_late_ms"
  | "psp_webhook_twice";

/** How a fake PSP is started; only the webhook secret is required. */
export interface FakePspOptions {
  port?: number;
  clock?: Clock;
  webhookUrl?: string;
  webhookSecret: string;
  /** Default: the generic PSP's retries until acknowledged; in Stripe's dialect, a sandbox's few tries. */
  webhookRetry?: WebhookRetry;
  rateLimits?: RateLimits;
  keyWindowMs?: number;
  takeFault?: (name: PspFaultName) => number | undefined;
  /** Reads a fault without consuming it (the latency's p99, which shapes every draw of the p50). */
  peekFault?: (name: PspFaultName) => number | undefined;
  /** Seeds the draws of latency and of replies lost by rate, so that a run can be replayed. */
  seed?: number;
  /** The format of the webhooks this instance sends; both dialects are always served on requests. */
  dialect?: Dialect;
  /** How long after its creation a PaymentIntent becomes searchable (Stripe's search is eventually consistent). */
  searchLagMs?: number;
  /**
   * How long each page of a Stripe list or search takes to answer (real time, ms): 0 for tests; a bench sets what
   * Stripe takes (tens of ms), so that a lookup of many pages costs its real time.
   */
  listPageMs?: number;
  /** Search's own rate limit per account (requests/s, Stripe's 20 for the Search API); over it, a 429. */
  searchRatePerS?: number;
  /**
   * How long (by the PSP's clock) after it succeeded a refund of Stripe's test card `pm_card_refundFail` fails
   * with `expired_or_canceled_card`; Stripe says only "some time later".
   */
  refundFailDelayMs?: number;
}

/** Backoff for webhook deliveries: `baseMs` doubling per attempt, capped at `maxMs`. */
export interface WebhookRetry {
  baseMs: number;
  maxMs: number;
  maxAttempts: number;
  /** How long after the event the first delivery goes out (a real PSP's events arrive a little after its reply). */
  firstMs?: number;
}

/** Requests per second allowed per account and per (account, endpoint). */
export interface RateLimits {
  perAccount: number;
  perEndpoint: number;
}

/** One webhook attempt; `status` is "error" when no HTTP answer came back. */
export interface WebhookDelivery {
  eventId: string;
  attempt: number;
  status: number | "error";
}

/** A running fake PSP and what tests may inspect about it. */
export interface FakePsp {
  url: string;
  port: number;
  charges(): ChargeSummary[];
  refunds(): RefundSummary[];
  requests(): number;
  /** Every request as `METHOD /path`, oldest first. */
  requestLog(): string[];
  setWebhookUrl(url: string | undefined): void;
  webhookDeliveries(): WebhookDelivery[];
  /** How many webhook deliveries are still to go out or unanswered (0 when all is quiet). */
  webhooksPending(): number;
  /** Every webhook event the PSP has emitted, oldest first (copies), in the instance's dialect. */
  webhookEvents(): WebhookEvent[];
  /** Sends the events of charge reference `reference` (all when absent) again at once, oldest first; returns how many. */
  redeliverWebhooks(reference?: string): number;
  /** Puts intents in an account at once, without a request each (lists at volume); returns how many. */
  seedIntents(seed: IntentSeed): number;
  /**
   * Makes every change due by the PSP's clock now (a `processing` intent succeeding, a pending refund settling, a
   * refund of `pm_card_refundFail` failing), as the next request or the PSP's own 50 ms poll would; returns how
   * many changed. A test that advances the clock calls it rather than wait for the poll.
   */
  settleDue(): number;
  /** Refunds a PaymentIntent as the Dashboard would: no key, and an event naming no request; returns its id. */
  dashboardRefund(paymentIntentId: string): string;
  /** Tops up every account's balance: each refund `pending` for `insufficient_funds` succeeds; returns how many. */
  topUpBalance(): number;
  /** Fails a `pending` or `succeeded` refund now (`failure_reason`, default `unknown`), as Stripe can later. */
  failRefund(id: string, failureReason?: string): void;
  /** Cumulative counters by endpoint, origin and answer, as `GET /_local/psp/stats` serves them. */
  stats(): PspStats;
  stop(): Promise<void>;
}

/** Options with every default filled in. */
export type ResolvedOptions = Required<Omit<FakePspOptions, "webhookUrl">> & {
  webhookUrl: string | undefined;
};

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

/**
 * A Stripe sandbox's webhook retries: "in a sandbox, Stripe retries three times over a few hours"
 * (https://docs.stripe.com/webhooks, automatic retries); the intervals are not published, so an hour doubling.
 * The default of an instance in Stripe's dialect. The waits are real time, as the sender's timers are.
 */
export const STRIPE_SANDBOX_WEBHOOK_RETRY: WebhookRetry = {
  baseMs: HOUR_MS,
  maxMs: 4 * HOUR_MS,
  maxAttempts: 4,
};

/**
 * Live mode's: "exponential backoff for up to three days"; from a minute doubling to twelve hours, fifteen tries
 * (the last about three days after the first).
 */
export const STRIPE_LIVE_WEBHOOK_RETRY: WebhookRetry = {
  baseMs: 60_000,
  maxMs: 12 * HOUR_MS,
  maxAttempts: 15,
};

// The generic PSP's own: retried until acknowledged, as the contract's tests expect.
const GENERIC_WEBHOOK_RETRY: WebhookRetry = { baseMs: 250, maxMs: 30_000, maxAttempts: 50 };
const DEFAULT_SEED = 0x5eed;
// Small, so that a stack test on the real clock sees the failure within a couple of seconds.
const DEFAULT_REFUND_FAIL_DELAY_MS = 2_000;

/** Fills in the defaults the contract names (Stripe's 24 h key window, 100/25 requests per second). */
export function resolveOptions(opts: FakePspOptions): ResolvedOptions {
  if (!opts.webhookSecret) throw new TypeError("webhookSecret is required to sign webhooks");
  if (opts.dialect !== undefined && opts.dialect !== "generic" && opts.dialect !== "stripe") {
    throw new TypeError(`dialect must be "generic" or "stripe", not ${JSON.stringify(opts.dialect)}`);
  }
  return {
    port: opts.port ?? 0,
    clock: opts.clock ?? clock,
    webhookUrl: opts.webhookUrl,
    webhookSecret: opts.webhookSecret,
    webhookRetry:
      opts.webhookRetry ?? (opts.dialect === "stripe" ? STRIPE_SANDBOX_WEBHOOK_RETRY : GENERIC_WEBHOOK_RETRY),
    rateLimits: opts.rateLimits ?? { perAccount: 100, perEndpoint: 25 },
    keyWindowMs: opts.keyWindowMs ?? DAY_MS,
    takeFault: opts.takeFault ?? takeFault,
    peekFault: opts.peekFault ?? peekFault,
    seed: opts.seed ?? DEFAULT_SEED,
    dialect: opts.dialect ?? "generic",
    searchLagMs: opts.searchLagMs ?? 0,
    listPageMs: opts.listPageMs ?? 0,
    searchRatePerS: opts.searchRatePerS ?? 20,
    refundFailDelayMs: opts.refundFailDelayMs ?? DEFAULT_REFUND_FAIL_DELAY_MS,
  };
}
