import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { type Conditions, createConditions } from "./conditions";
import type { Dialect } from "./dialect-name";
import { createIdempotencyStore, type IdempotencyStore } from "./idempotency-store";
import { createLedger, type Ledger } from "./ledger";
import type { ResolvedOptions } from "./options";
import { createRateLimiter, type RateLimiter } from "./rate-limiter";
import { createSleeper, type Sleeper } from "./sleeper";
import { createStats, type StatsCounter } from "./stats";
import { createWebhookSender, type WebhookSender } from "./webhook-sender";

/** The state one fake PSP instance holds; nothing is module-global so several can run side by side. */
export interface PspContext {
  opts: ResolvedOptions;
  ledger: Ledger;
  store: IdempotencyStore;
  limiter: RateLimiter;
  webhooks: WebhookSender;
  sleeper: Sleeper;
  conditions: Conditions;
  stats: StatsCounter;
  requestCount: number;
  /** Every request as `METHOD /path`, in arrival order, so tests can tell a replay from a lookup. */
  requestLog: string[];
}

/** One request being handled, with the account it is made for. */
export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  account: string;
  url: URL;
  /** Set during an outage: the request runs as usual, but its reply is dropped. */
  dropReply?: boolean;
  /** Which dialect the request speaks, told by its path and content type; it shapes errors and lost replies. */
  dialect: Dialect;
  /** The `Request-Id` of this request's answer, which a Stripe event names as the request that caused it. */
  requestId: string;
}

/** Creates the state of a fresh PSP from resolved options. */
export function createContext(opts: ResolvedOptions): PspContext {
  const sleeper = createSleeper();
  return {
    opts,
    ledger: createLedger(),
    store: createIdempotencyStore(opts.clock, opts.keyWindowMs),
    limiter: createRateLimiter(opts.rateLimits),
    webhooks: createWebhookSender({
      url: opts.webhookUrl,
      secret: opts.webhookSecret,
      retry: opts.webhookRetry,
      clock: opts.clock,
      takeFault: opts.takeFault,
      signatureHeader: opts.dialect === "stripe" ? "Stripe-Signature" : "Psp-Signature",
    }),
    sleeper,
    conditions: createConditions({
      takeFault: opts.takeFault,
      peekFault: opts.peekFault,
      seed: opts.seed,
      now: () => performance.now(),
    }),
    stats: createStats(() => sleeper.held()),
    requestCount: 0,
    requestLog: [],
  };
}

/** Seconds since the epoch by the PSP's clock, the unit Stripe uses for `created`. */
export function unixNow(ctx: PspContext): number {
  return Math.floor(ctx.opts.clock.now() / 1000);
}
