import { clock } from "../clock/clock";
import { type Reconciliation, reconcile } from "./compare-records";
import type { ReadProgress, ReconcileSources } from "./reconcile-sources";

/** How long a payment may stay PENDING or UNKNOWN before reconciliation reports it (the resolver settles sooner). */
export const DEFAULT_STALE_MS = 60 * 60_000;

/**
 * The nightly run's period: a day and an hour, so that a run that starts late, or a day whose run failed once and
 * was retried, still covers every charge since the previous run. The overlap is read twice, which is harmless.
 */
export const NIGHTLY_PERIOD_MS = 25 * 3_600_000;

/**
 * How far before the period the ledger is read: a charge in the period can belong to a row written earlier (a
 * payment just before the start, or one the resolver replayed hours later). Replays reuse the PSP key, which the
 * PSP keeps for 24 h, so no charge names a row older than that.
 */
export const LEDGER_LOOKBACK_MS = 24 * 3_600_000;

/**
 * How long before the ledger scan began a charge with no row is still too recent to call lost: its request may
 * not yet have written the row the scan would have read (and a charge made after the scan began has none to read).
 * It also covers the PSP's `created`, whole seconds rounded down, and a little skew between its clock and ours.
 */
export const ROW_IN_FLIGHT_GRACE_MS = 60_000;

/** What a reconciliation reads and when: the start of its period and the clock its staleness is judged by. */
export interface ReconcileRun {
  sinceMs: number;
  now: number;
  staleMs: number;
  /** Told after each page of either side, with the side and how many records it has read. */
  progress?: (side: "psp" | "ledger", n: number) => void;
}

/**
 * Reads both sides for the period (the ledger first, then the PSP, every page of each) and compares them.
 * Ledger first: a SUCCEEDED row is written after its charge, so every row the scan reads has its charge listed.
 * Read-only; an error reading either side throws, since an unread side is not a match.
 */
export async function reconcileSince(sources: ReconcileSources, run: ReconcileRun): Promise<Reconciliation> {
  const told =
    (side: "psp" | "ledger"): ReadProgress =>
    (n) =>
      run.progress?.(side, n);
  const scanStart = clock.now();
  const rows = await sources.payments(run.sinceMs - LEDGER_LOOKBACK_MS, told("ledger"));
  const charges = await sources.charges(Math.floor(run.sinceMs / 1000), told("psp"));
  return reconcile(charges, rows, {
    now: run.now,
    staleMs: run.staleMs,
    sinceMs: run.sinceMs,
    recentFromMs: scanStart - ROW_IN_FLIGHT_GRACE_MS,
  });
}
