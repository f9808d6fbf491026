import { CHAOS_TIMING } from "./run-schedule";

/**
 * The environment of a chaos stack: the same code, with the real-time parts made short so that a schedule takes
 * seconds (a 1.5 s deadline, a 0.4 s takeover margin, a 2 s redelivery), and the schedules' own jobs instead of
 * the cron (the resolver and the sweeps run when a schedule or the quiesce asks).
 */
export function chaosEnv(): Record<string, string> {
  return {
    DEADLINE_MS: String(CHAOS_TIMING.deadlineMs),
    CLOCK_MARGIN_MS: String(CHAOS_TIMING.clockMarginMs),
    TAKEOVER_MARGIN_MS: String(CHAOS_TIMING.takeoverMarginMs),
    PSP_WEBHOOK_DELAY_MS: String(CHAOS_TIMING.webhookDelayMs),
    PSP_SAVED_5XX_SETTLE_S: String(CHAOS_TIMING.saved5xxSettleS),
    PSP_NOT_FOUND_SETTLE_S: String(CHAOS_TIMING.notFoundSettleS),
    // 2 s, so that the worker's 1.75 s timeout holds its one read of the authority on a loaded machine (a worker the
    // local runtime times out keeps running beside its own redelivery: an extra alert no crash accounts for).
    EVENTS_VISIBILITY_TIMEOUT_S: "2",
    // A Region acts on a read of the authority at most 0.5 s old; a failover lets the new Region act 2.5 s after
    // its fence (the cache, the 1.5 s deadline, 0.5 s for the SDK), the act window scaled down with the rest.
    REGION_CONTROL_CACHE_MS: "500",
    FAILOVER_ACT_WINDOW_MS: "2500",
    // The checker reads every merchant's balance in each Region about five times a schedule, two queries a shard: 32
    // shards made those reads two fifths of a simulated schedule's requests. A schedule pays a few merchants a few
    // times, so 4 shards still spread its credits, and put two on one shard more often (the contended case).
    BALANCE_SHARDS: "4",
    // Every reader of gsi1's lists (the resolver's four states, the outbox, the refund marks, the backlog the quiesce
    // reads on each pass) queries each shard and the earlier single key: with 8 shards those were two thirds of a
    // simulated schedule's requests. 2 still spread a schedule's payments over two keys and the legacy one, which
    // the readers merge oldest first.
    LEDGER_INDEX_SHARDS: "2",
    POWERTOOLS_METRICS_DISABLED: "true",
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? "CRITICAL",
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  };
}

/** The stack options of a chaos stack (see chaosEnv): the primary Region alone. */
export const CHAOS_STACK_OPTIONS = {
  resolverEveryMs: 0,
  sweepsEveryMs: 0,
  webhookRetryBaseMs: 100,
  webhookDelayMs: CHAOS_TIMING.webhookDelayMs,
  standby: false,
} as const;

/** The stack options of a two-Region chaos stack: both Regions, replicating with the seed's 1 s lag. */
export const CHAOS_TWO_REGION_OPTIONS = { ...CHAOS_STACK_OPTIONS, standby: true } as const;
