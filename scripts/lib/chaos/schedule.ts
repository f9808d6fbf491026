/**
 * A generated fault schedule: a few orders (each a caller's payment to a merchant) and the steps the clients and
 * the faults take. Everything random is in this value (no Math.random in a run), so a failing schedule shrinks
 * and replays. Steps name orders by index modulo the order count, so that shrinking the orders keeps them valid.
 */
export interface Schedule {
  orders: OrderSpec[];
  steps: Step[];
}

/**
 * One order: who pays, whom, how much, and whether the card is declined. `refundFails`: the card is Stripe's
 * `pm_card_refundFail`, whose refunds succeed and then fail some time later (only Stripe's dialect fails them).
 */
export interface OrderSpec {
  caller: number;
  merchant: number;
  amount: number;
  declined: boolean;
  refundFails?: boolean;
}

/** What goes wrong around one request to the PSP or in the handler that serves it. */
export type PayFault =
  | { kind: "none" }
  | { kind: "psp_lose_reply" }
  | { kind: "psp_delay_past_deadline" }
  | { kind: "psp_fail"; status: 500 | 503 }
  /** A 429 that was never run (not saved under the key). */
  | { kind: "psp_429" }
  | { kind: "crash"; point: PayCrashPoint }
  | { kind: "paused_owner" }
  | { kind: "webhook"; how: "early" | "late" | "twice" };

// The crash points are the contract's names (docs/local-stack.md, `crash_at`), written out here rather than
// imported from packages/core: the schedules and the checker stay independent of the code they judge.
export const PAY_CRASH_POINTS = [
  "pay.after_claim",
  "pay.after_guard",
  "pay.after_psp",
  "pay.after_settle",
  "pay.after_completion",
] as const;
export type PayCrashPoint = (typeof PAY_CRASH_POINTS)[number];

/** Crashes of the asynchronous half, armed with a payment and waited for after it. */
export const ASYNC_CRASH_POINTS = [
  "relay.after_publish",
  "relay.after_delete",
  "worker.after_commit",
  "worker.after_send",
  "worker.after_sent_mark",
] as const;
export type AsyncCrashPoint = (typeof ASYNC_CRASH_POINTS)[number];

/** One step of a schedule. */
export type Step =
  /**
   * Pay (or pay again with the same key: the client's retry after a timeout or a 202). `streamThrottle`: the
   * mapping's stream reads are throttled as the payment's records arrive (its events reach the relay late).
   */
  | { op: "pay"; order: number; fault: PayFault; asyncCrash?: AsyncCrashPoint; streamThrottle?: boolean }
  /** "Did it go through?": resolve the order's current key; `lookupLag`: the PSP's lookup by reference lags. */
  | { op: "resolve"; order: number; lookupLag?: boolean }
  /** A client that heard VOID from resolve pays the same order again with a new key. */
  | { op: "new_key"; order: number }
  /**
   * The buyer cancels. `psp_outage`: the PSP refuses the refund at its edge, so the refund stays in flight
   * (REFUND_PENDING, the buyer told 202) for the resolver to send; drawn only with `--stall-replication`.
   */
  | { op: "cancel"; order: number; fault: CancelFault }
  /** The clock jumps: the buyer comes back after seconds or hours. */
  | { op: "later"; seconds: number }
  /**
   * A scheduled job runs; `lookupLag`: the PSP's lookups by reference lag during its pass; `pausedAcrossCut`: the
   * pass is held at its first PSP call while its Region is cut off and the on-call fails over, and goes on after.
   */
  | { op: "job"; job: "resolver" | "sweeps"; lookupLag?: boolean; pausedAcrossCut?: boolean }
  /** The PSP delivers every webhook of the order's payment again, oldest first (twice, out of order). */
  | { op: "redeliver"; order: number }
  /**
   * The active Region fails within the replication lag, and the on-call engineer fails over (forced);
   * `operatorClockOffMs`: the engineer's machine's clock is that far off (negative: slow), as a laptop's can be.
   */
  | { op: "region_fail"; operatorClockOffMs?: number }
  /** Failed Regions come back and cut-off ones heal, by themselves: nobody runs the failover command for them. */
  | { op: "region_recover" }
  /**
   * The active Region is cut off but keeps running; the engineer fails over (`operatorClockOffMs` as for a failure);
   * the phones keep their old routing.
   */
  | { op: "region_partition"; operatorClockOffMs?: number }
  /** The on-call engineer runs the failover command again, late (it only checks). */
  | { op: "failover_again" }
  /** The phones learn the new routing. */
  | { op: "reroute" }
  /**
   * Replication between the Regions stalls (both Regions running) until the next `region_recover` or the quiesce:
   * a settle and a cancel can then happen on one side while the other keeps an older copy (issue 40). Drawn only
   * with `npm run chaos -- --regions 2 --stall-replication`.
   */
  | { op: "replication_stall" };

/** How a cancel's PSP call goes wrong, if it does. */
export type CancelFault = "none" | "psp_lose_reply" | "crash" | "psp_outage";

/** The steps about Regions, which need a stack with both Regions. */
export const REGION_OPS = [
  "region_fail",
  "region_recover",
  "region_partition",
  "failover_again",
  "reroute",
  "replication_stall",
] as const;

/** Whether a schedule fails a Region, and so needs a stack with both Regions. */
export function needsTwoRegions(s: Schedule): boolean {
  return s.steps.some((st) => (REGION_OPS as readonly string[]).includes(st.op));
}

/** The client-side guard switches a run may take away (the server's are environment switches). */
export interface ClientSwitches {
  /** The client makes a new key for every retry instead of keeping its key (the seed's branch 3a). */
  newKeyPerRetry?: boolean;
}

/** A short text of a schedule for progress lines and violation reports. */
export function describeSchedule(s: Schedule): string {
  const steps = s.steps.map((st) => {
    switch (st.op) {
      case "pay":
        return `pay#${st.order}${st.fault.kind === "none" ? "" : `[${faultText(st.fault)}]`}${st.asyncCrash ? `{${st.asyncCrash}}` : ""}${st.streamThrottle ? "{stream_throttle}" : ""}`;
      case "resolve":
        return `resolve#${st.order}${st.lookupLag ? "[lookup_lag]" : ""}`;
      case "cancel":
        return `cancel#${st.order}${st.fault === "none" ? "" : `[${st.fault}]`}`;
      case "later":
        return `later(${st.seconds}s)`;
      case "job":
        return `${st.job}${st.lookupLag ? "[lookup_lag]" : ""}${st.pausedAcrossCut ? "[paused_across_cut]" : ""}`;
      case "region_fail":
      case "region_partition":
        return `${st.op}${st.operatorClockOffMs ? `[operator_clock${st.operatorClockOffMs > 0 ? "+" : ""}${st.operatorClockOffMs / 1000}s]` : ""}`;
      case "region_recover":
      case "failover_again":
      case "reroute":
      case "replication_stall":
        return st.op;
      default:
        return `${st.op}#${st.order}`;
    }
  });
  return `${s.orders.length} orders: ${steps.join(" ")}`;
}

function faultText(f: PayFault): string {
  if (f.kind === "psp_fail") return `psp_fail ${f.status}`;
  if (f.kind === "crash") return `crash ${f.point}`;
  if (f.kind === "webhook") return `webhook ${f.how}`;
  return f.kind;
}
