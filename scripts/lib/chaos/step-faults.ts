import { CHAOS_TIMING } from "./chaos-timing";
import type { PayFault } from "./schedule";

/** How long the mapping's stream reads are throttled when a pay step says so: the relay hears the payment late. */
export const STREAM_THROTTLE_MS = 3_000;

/**
 * How many lookups by reference lag: one for a resolve (its one lookup), three through a resolver's pass (the
 * rows it looks up after a failover), as a search index that has not caught up answers every query of a while.
 */
export const LOOKUP_LAGS = { resolve: 1, pass: 3 } as const;

/**
 * The lagging index's `/_local/faults` body: it leaves out charges younger than the not-found settle time, the most
 * the design allows a lookup to lag (a lag without bound would make every "not found" a lie, whatever the wait).
 */
export const LOOKUP_LAG_FAULT = { psp_index_lag_ms: CHAOS_TIMING.notFoundSettleS * 1000 } as const;

/**
 * How long a paused pass's first PSP call is held (the operator's process or the scheduled pass paused mid-pass):
 * past the forced failover's act window, within the resolver's 5 s PSP timeout, so its answer comes after the fence.
 */
export const PASS_PAUSE_FAULT = { psp_delay_ms: 4_000 } as const;

/** Long enough to refuse a cancel's refund at the PSP's edge; cleared as soon as the cancel answered. */
export const CANCEL_OUTAGE_MS = 3_000;

/** The `/_local/faults` body that arms a pay fault for one occurrence. */
export function payFaultBody(f: PayFault): Record<string, string | number> {
  switch (f.kind) {
    case "none":
      return {};
    case "psp_lose_reply":
      return { psp_lose_reply: 1 };
    case "psp_delay_past_deadline":
      return { psp_delay_ms: CHAOS_TIMING.deadlineMs + 400 };
    case "psp_fail":
      return { psp_fail: f.status };
    case "psp_429":
      return { psp_rate_limit: 1 };
    case "crash":
      return { crash_at: f.point };
    case "paused_owner":
      // Long enough for the retry (sent after the lease and the margin) to take over and finish first.
      return { stall_after_psp_ms: CHAOS_TIMING.deadlineMs + CHAOS_TIMING.takeoverMarginMs + 1_500 };
    case "webhook":
      return f.how === "early"
        ? { psp_webhook_early: 1 }
        : f.how === "late"
          ? { psp_webhook_late_ms: 2_500 }
          : { psp_webhook_twice: 1 };
  }
}
