import { FAULT_SLOTS, sharedState } from "../shared-state/shared-state";
import { CRASH_POINTS, crashPointIndex } from "./crash-points";

/**
 * Armed faults, each for the next `n` occurrences. Nothing arms them in AWS (the `/_local` routes
 * are never deployed), so in production every `takeFault` answers undefined.
 */
export type FaultName =
  | "psp_lose_reply"
  | "psp_delay_ms"
  | "psp_fail"
  | "psp_refund_refuse"
  | "psp_refund_pending"
  | "psp_intent_processing"
  | "psp_search_lag"
  | "psp_lookup_delay_ms"
  | "psp_outage_ms"
  | "psp_latency_p50_ms"
  | "psp_latency_p99_ms"
  | "psp_lose_reply_rate"
  | "psp_webhook_early"
  | "psp_webhook_late_ms"
  | "psp_webhook_twice"
  | "stall_after_claim_ms"
  | "relay_crash_after_publish"
  | "worker_crash_after_commit"
  | "worker_crash_after_send"
  | "mrsc_write_conflict"
  | "crash_at"
  | "stall_after_psp_ms"
  | "psp_rate_limit"
  | "stream_job_crash_after_sink"
  | "stream_job_redeliver"
  | "stream_job_sink_down"
  | "stream_read_throttle_ms"
  | "psp_index_lag_ms";

export const FAULT_NAMES: readonly FaultName[] = [
  "psp_lose_reply",
  "psp_delay_ms",
  "psp_fail",
  "psp_refund_refuse",
  "psp_refund_pending",
  "psp_intent_processing",
  "psp_search_lag",
  "psp_lookup_delay_ms",
  "psp_outage_ms",
  "psp_latency_p50_ms",
  "psp_latency_p99_ms",
  "psp_lose_reply_rate",
  "psp_webhook_early",
  "psp_webhook_late_ms",
  "psp_webhook_twice",
  "stall_after_claim_ms",
  "relay_crash_after_publish",
  "worker_crash_after_commit",
  "worker_crash_after_send",
  "mrsc_write_conflict",
  "crash_at",
  "stall_after_psp_ms",
  "psp_rate_limit",
  "stream_job_crash_after_sink",
  "stream_job_redeliver",
  "stream_job_sink_down",
  "stream_read_throttle_ms",
  "psp_index_lag_ms",
];
if (FAULT_NAMES.length > FAULT_SLOTS) throw new Error("more faults than the shared state has slots");

// The counts live in the shared state, so that a fault armed once is taken once by whichever local Region
// meets it first (compare-and-swap), as a fault of one shared PSP or network would be.
const slotOf = (name: FaultName): number => FAULT_NAMES.indexOf(name);

/** Arms a fault for the next `n` occurrences; `value` is the delay or status where the fault has one. */
export function armFault(name: FaultName, value: number, n: number): void {
  const { faultValues, faultCounts } = sharedState();
  const slot = slotOf(name);
  Atomics.store(faultCounts, slot, 0);
  faultValues[slot] = value;
  Atomics.store(faultCounts, slot, Math.max(0, n));
}

/** Consumes one occurrence of a fault and returns its value, or undefined when it is not armed. */
export function takeFault(name: FaultName): number | undefined {
  const { faultValues, faultCounts } = sharedState();
  const slot = slotOf(name);
  for (;;) {
    const left = Atomics.load(faultCounts, slot);
    if (left <= 0) return undefined;
    if (Atomics.compareExchange(faultCounts, slot, left, left - 1) === left) return faultValues[slot];
  }
}

/** Reads a fault's value without consuming an occurrence, or undefined when it is not armed. */
export function peekFault(name: FaultName): number | undefined {
  const { faultValues, faultCounts } = sharedState();
  const slot = slotOf(name);
  return Atomics.load(faultCounts, slot) > 0 ? faultValues[slot] : undefined;
}

/**
 * Clears every armed fault and answers those that were still armed, each slot taken in one atomic exchange: a
 * fault is either cleared here or taken by a handler, never both, so a schedule counts what fired exactly.
 */
export function clearFaults(): Record<string, number | string> {
  const { faultValues, faultCounts } = sharedState();
  const cleared: Record<string, number | string> = {};
  FAULT_NAMES.forEach((name, slot) => {
    if (Atomics.exchange(faultCounts, slot, 0) <= 0) return;
    const value = faultValues[slot] ?? 0;
    cleared[name] = name === "crash_at" ? (CRASH_POINTS[value] ?? value) : value;
  });
  return cleared;
}

/** What is armed now, for `/_local/health` and tests. */
export function armedFaults(): Record<string, { value: number | string; remaining: number }> {
  const { faultValues, faultCounts } = sharedState();
  return Object.fromEntries(
    FAULT_NAMES.flatMap((name, slot) => {
      const remaining = Atomics.load(faultCounts, slot);
      const value = faultValues[slot] ?? 0;
      const shown = name === "crash_at" ? (CRASH_POINTS[value] ?? value) : value;
      return remaining > 0 ? [[name, { value: shown, remaining }]] : [];
    }),
  );
}

// A valued fault's number is its delay, status or rate, and `n` counts its occurrences; the others' number is `n`.
const VALUED_FAULTS: readonly FaultName[] = [
  "psp_delay_ms",
  "psp_fail",
  // How long (PSP clock, ms) the balance stays short before the pending refund succeeds; 0 waits for a top up.
  "psp_refund_pending",
  // How long (PSP clock, ms) the next PaymentIntent stays `processing` before it succeeds.
  "psp_intent_processing",
  "psp_lookup_delay_ms",
  "psp_webhook_late_ms",
  "psp_outage_ms",
  "psp_latency_p50_ms",
  "psp_latency_p99_ms",
  "psp_lose_reply_rate",
  "stall_after_claim_ms",
  "crash_at",
  "stall_after_psp_ms",
  // How many records back the source re-reads from.
  "stream_job_redeliver",
  "stream_job_sink_down",
];

/**
 * Parses the contract's `POST /_local/faults` body: `{"psp_lose_reply": 1}` arms for 1 occurrence,
 * `{"psp_delay_ms": 12000, "n": 1}` arms a valued fault for `n` occurrences (default 1).
 */
export function parseFaultRequest(body: unknown): Array<{ name: FaultName; value: number; n: number }> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new TypeError('faults body must be a JSON object such as {"psp_lose_reply": 1}');
  }
  const rec = body as Record<string, unknown>;
  const n = rec.n === undefined ? undefined : Number(rec.n);
  if (n !== undefined && (!Number.isInteger(n) || n < 0))
    throw new TypeError("n must be a non-negative integer");
  const out: Array<{ name: FaultName; value: number; n: number }> = [];
  for (const [key, raw] of Object.entries(rec)) {
    if (key === "n") continue;
    if (!FAULT_NAMES.includes(key as FaultName)) {
      throw new TypeError(`unknown fault "${key}"; known: ${FAULT_NAMES.join(", ")}`);
    }
    // A crash point is armed by its name; the shared state holds its index.
    const value = key === "crash_at" ? crashPointIndex(raw) : Number(raw);
    if (key === "psp_lose_reply_rate" && !(value >= 0 && value <= 1))
      throw new TypeError(
        `fault psp_lose_reply_rate is a probability from 0 to 1, not ${JSON.stringify(raw)}`,
      );
    if (!Number.isFinite(value) || value < 0) throw new TypeError(`fault ${key} needs a non-negative number`);
    const valued = VALUED_FAULTS.includes(key as FaultName);
    out.push({ name: key as FaultName, value, n: valued ? (n ?? 1) : (n ?? value) });
  }
  if (out.length === 0) throw new TypeError("no fault named in the body");
  checkLatencyPair(rec);
  return out;
}

// A p99 below its p50 describes no distribution; refused here rather than silently flattened by the PSP.
function checkLatencyPair(rec: Record<string, unknown>): void {
  const p50 = Number(rec.psp_latency_p50_ms);
  const p99 = Number(rec.psp_latency_p99_ms);
  if (p99 < p50)
    throw new TypeError(`psp_latency_p99_ms (${p99}) must not be below psp_latency_p50_ms (${p50})`);
}
