import { type Reconciliation, reconcile } from "./compare-records";
import type { ReadProgress, ReconcileSources } from "./reconcile-sources";

/** How long a payment may stay PENDING or UNKNOWN before reconciliation reports it (the resolver settles sooner). */
export const DEFAULT_STALE_MS = 60 * 60_000;

/**
 * The nightly run's period: a day and an hour, so that a run that starts late, or a day whose run failed once and
 * was retried, still covers every charge since the previous run. The overlap is read twice, which is harmless.
 */
export const NIGHTLY_PERIOD_MS = 25 * 3_600_000;

/** What a reconciliation reads and when: the start of its period and the clock its staleness is judged by. */
export interface ReconcileRun {
  sinceMs: number;
  now: number;
  staleMs: number;
  /** Told after each page of either side, with the side and how many records it has read. */
  progress?: (side: "psp" | "ledger", n: number) => void;
}

/**
 * Reads both sides for the period (the PSP first, then the ledger, every page of each) and compares them.
 * Read-only; an error reading either side throws, since an unread side is not a match.
 */
export async function reconcileSince(sources: ReconcileSources, run: ReconcileRun): Promise<Reconciliation> {
  const told =
    (side: "psp" | "ledger"): ReadProgress =>
    (n) =>
      run.progress?.(side, n);
  const charges = await sources.charges(Math.floor(run.sinceMs / 1000), told("psp"));
  const rows = await sources.payments(run.sinceMs, told("ledger"));
  return reconcile(charges, rows, { now: run.now, staleMs: run.staleMs });
}
