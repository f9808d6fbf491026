/** What the verdict needs of one buyer: the planned tap, when a final answer came and what it was (epoch ms). */
export interface BuyerOutcome {
  intendedAt: number;
  finalAt?: number;
  outcome?: string;
}

/** The run judged from the buyers' side: who heard a final answer in time, who must pay again, and the FIFO bound. */
export interface BuyerVerdict {
  buyers: number;
  horizon_s: number;
  /** Succeeded or declined within the horizon, counted from the planned tap. */
  final_within_horizon: number;
  final_within_horizon_pct: number;
  /** Succeeded or declined, but only after the horizon (the phone asked on and heard it). */
  final_after_horizon: number;
  /** Told VOID: the payment was never charged and the buyer must pay again (the client voids after its horizon). */
  voided: number;
  /** No final answer by the end of the run (still processing, or refused). */
  not_final: number;
  /** Buyers who must pay again: voided plus not final. */
  gave_up: number;
  /** The least possible worst wait from a tap to its service, in tap order at the budget (see fifo-bound.ts). */
  fifo_bound_s: number;
  final_p99_s: number;
  final_max_s: number;
  /** Measured over bound; null when the bound is under 10 ms (no queue to speak of). */
  p99_over_bound: number | null;
  max_over_bound: number | null;
  /** False when any buyer gave up. */
  ok: boolean;
}

const FINAL = new Set(["succeeded", "declined"]);
const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;
const ratio = (measured: number, bound: number) => (bound < 10 ? null : round(measured / bound, 2));

/** Judges the buyers of one run against their horizon and the FIFO bound; final latencies are ms from the tap. */
export function buyerVerdict(
  records: readonly BuyerOutcome[],
  horizonMs: number,
  boundMs: number,
  final: { p99: number; max: number },
): BuyerVerdict {
  const waited = (r: BuyerOutcome) => (r.finalAt ?? Number.POSITIVE_INFINITY) - r.intendedAt;
  const answered = records.filter((r) => r.finalAt !== undefined && FINAL.has(r.outcome ?? ""));
  const within = answered.filter((r) => waited(r) <= horizonMs).length;
  const voided = records.filter((r) => r.finalAt !== undefined && r.outcome === "voided").length;
  const notFinal = records.filter((r) => r.finalAt === undefined).length;
  const gaveUp = voided + notFinal;
  return {
    buyers: records.length,
    horizon_s: round(horizonMs / 1000, 1),
    final_within_horizon: within,
    final_within_horizon_pct: records.length === 0 ? 100 : round((100 * within) / records.length, 1),
    final_after_horizon: answered.length - within,
    voided,
    not_final: notFinal,
    gave_up: gaveUp,
    fifo_bound_s: round(boundMs / 1000, 1),
    final_p99_s: round(final.p99 / 1000, 1),
    final_max_s: round(final.max / 1000, 1),
    p99_over_bound: ratio(final.p99, boundMs),
    max_over_bound: ratio(final.max, boundMs),
    ok: gaveUp === 0,
  };
}

/** The verdict as lines for the printed summary. */
export function verdictLines(v: BuyerVerdict): string[] {
  const x = (r: number | null) => (r === null ? "n/a (no queue)" : `${r}×`);
  return [
    `buyers final within their ${v.horizon_s} s horizon: ${v.final_within_horizon} of ${v.buyers} (${v.final_within_horizon_pct} %)`,
    `final only after the horizon: ${v.final_after_horizon}`,
    `gave up (must pay again): ${v.gave_up} (voided ${v.voided}, no final answer ${v.not_final})`,
    `FIFO bound ${v.fifo_bound_s} s; final answer p99 ${v.final_p99_s} s (${x(v.p99_over_bound)} the bound), max ${v.final_max_s} s (${x(v.max_over_bound)})`,
  ];
}
