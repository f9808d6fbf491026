import type { BuyerVerdict } from "./buyer-verdict";

/** Latency percentiles of one HDR histogram, in milliseconds. */
export interface Percentiles {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
}

/** What one second of the run looked like (counts are for that second, gauges at its end). */
export interface SecondSample {
  /** Seconds since the first arrival. */
  t: number;
  /** Arrivals scheduled in this second (open loop: independent of answers). */
  offered: number;
  /** First answers that were 201 or 402 or 202 (the API took the payment or settled it). */
  accepted: number;
  /** Buyers whose pay() has not finished yet. */
  in_flight: number;
  /** First answers by status ("201", "202", "402", "409", "503", "timeout", "other"). */
  first_answers: Record<string, number>;
  /** Buyers who got a final answer (succeeded, declined, voided) in this second. */
  finals: number;
  /** PSP requests in this second from live payments, from the resolver, and those the PSP answered 429. */
  psp_live: number;
  psp_resolver: number;
  psp_429: number;
  /** Payments PENDING or UNKNOWN in the ledger at the end of the second. */
  unknown_backlog: number;
  /** Percentiles of the first answers that came back in this second (ms from the intended arrival). */
  first_answer_ms: { p50: number; p99: number };
}

/** One invariant of the independent check after the run. */
export interface InvariantResult {
  name: string;
  ok: boolean;
  /** What was counted, or the first few violations. */
  detail: string;
}

/** The whole run, as written to report.json and drawn in report.html. */
export interface LoadReport {
  run_id: string;
  started_at: string;
  /** The command line's settings (rate or ramp, duration, faults, caps). */
  settings: Record<string, string | number | boolean>;
  seconds: SecondSample[];
  latency: {
    first_answer: Percentiles;
    final_answer: Percentiles;
    tap_to_notification: Percentiles;
  };
  /** Totals for the summary table: label -> value. */
  summary: Record<string, string | number>;
  /** The run judged from the buyers' side (absent in reports written before it existed). */
  buyers?: BuyerVerdict;
  invariants: InvariantResult[];
  /** CPU seconds by process while the load ran (the stack itself vs each emulator), when the generator started the stack. */
  cpu?: Record<string, number>;
  /** Every invariant holds and no buyer gave up. */
  ok: boolean;
}
