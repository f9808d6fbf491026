import { MetricUnit } from "@aws-lambda-powertools/metrics";
import {
  clock,
  DEFAULT_STALE_MS,
  discrepancyCounts,
  NIGHTLY_PERIOD_MS,
  type Reconciliation,
  reconcileDeps,
  reconcileSince,
  regionGate,
} from "@eo/core";
import { logger, metrics } from "../shared/observability";

/**
 * The nightly reconcile: compares the PSP's charges of the last 25 h with the ledger and publishes what it found.
 * A discrepancy is a metric (its alarm pages), not an error; a side it could not read throws, so the run fails.
 */
export async function handler(): Promise<{ passive: true } | Reconciliation> {
  // Only the active Region reconciles; the standby's run proves that its schedule fires (ReconcileRuns).
  if (!(await regionGate().isActive())) {
    logger.info("reconcile skipped: this Region is passive");
    publish({ ReconcileRuns: 1 });
    return { passive: true };
  }
  const now = clock.now();
  const sinceMs = now - NIGHTLY_PERIOD_MS;
  const report = await reconcileSince(reconcileDeps(), { sinceMs, now, staleMs: DEFAULT_STALE_MS });
  // Counts, sums, payment and charge ids only: nothing of a card or a buyer reaches the log.
  logger.info("reconcile summary", {
    since: new Date(sinceMs).toISOString(),
    charges: report.charges,
    rows: report.rows,
    matched: report.matched,
    too_recent: report.too_recent,
    discrepancies: Object.fromEntries(discrepancyCounts(report)),
  });
  if (report.discrepancies.length > 0)
    logger.error("the PSP and the ledger disagree", { first: report.discrepancies.slice(0, 50) });
  const found = {
    ReconcileDiscrepancies: report.discrepancies.length,
    ReconcileMatched: report.matched.count,
  };
  publish({ ...found, ReconcileRuns: 1 });
  return report;
}

/** Publishes counts, zeros included: a zero is the proof of a clean night that the alarms read. */
function publish(counts: Record<string, number>): void {
  for (const [name, n] of Object.entries(counts)) metrics.addMetric(name, MetricUnit.Count, n);
  metrics.publishStoredMetrics();
}
