import { MetricUnit } from "@aws-lambda-powertools/metrics";
import { type ActiveRegion, paymentDeps, type ResolverReport, regionGate, settleUnknowns } from "@eo/core";
import { logger, metrics } from "../shared/observability";

/** The scheduled resolver: settles unknown and stale payments and refunds with their derived keys. */
export async function handler(): Promise<ResolverReport | { passive: true; why?: string }> {
  const deps = paymentDeps();
  const gate = regionGate();
  // Only the active Region replays PSP calls. Read now, not from the cache that the handlers share: a view from
  // before a failover would make an inherited row look like its own. A Region that cannot read it is passive.
  const control = await gate.activeNow();
  if (!control) {
    await publishPassiveView(gate);
    return { passive: true };
  }
  // The pass asks again before each PSP call: a failover in the middle of a pass stops its replays.
  const stillActive = async () => (await gate.activeNow())?.epoch === control.epoch;
  const report = await settleUnknowns(deps, { epoch: control.epoch, stillActive });
  if (report.examined > 0 || report.stoppedPassive) logger.info("resolver pass", { ...report });
  // An anomaly stays on every pass's report until a person settles it with the PSP (docs/runbook.md, Anomalies).
  if (report.anomalies.length > 0)
    logger.error("payments the PSP contradicts", { anomalies: report.anomalies });
  // A row whose settle threw went to the back of the index; a poison one pages (docs/runbook.md, "A row the
  // resolver cannot settle"). A 401/403 pages as a configuration error ("The PSP refuses our key").
  if (report.failed.length > 0) logger.error("resolver rows failed", { failed: report.failed });
  if (report.misconfigured.length > 0)
    logger.error("the PSP refuses our key", {
      reason: report.misconfigured[0]?.reason,
      rows: report.misconfigured,
    });
  publishPass(report, control.epoch);
  return report;
}

/**
 * Every pass of the active Region publishes the backlog it found and what it did, zeros included: the unknown
 * backlog's alarm reads its oldest age, and the Region's view of the authority is drawn per Region.
 */
function publishPass(report: ResolverReport, epoch: number): void {
  metrics.addMetric("UnknownBacklog", MetricUnit.Count, report.backlog);
  metrics.addMetric("UnknownOldestAgeS", MetricUnit.Seconds, report.oldestAgeS);
  metrics.addMetric("ResolverSettled", MetricUnit.Count, report.settled.length);
  metrics.addMetric("ResolverUnresolved", MetricUnit.Count, report.unresolved.length);
  metrics.addMetric("RegionActive", MetricUnit.Count, 1);
  metrics.addMetric("AuthorityEpoch", MetricUnit.Count, epoch);
  metrics.publishStoredMetrics();
}

/** A passive Region's pass publishes its view: not active, and the epoch it read (none when it read nothing). */
async function publishPassiveView(gate: ActiveRegion): Promise<void> {
  metrics.addMetric("RegionActive", MetricUnit.Count, 0);
  const control = await gate.control().catch(() => undefined);
  if (control) metrics.addMetric("AuthorityEpoch", MetricUnit.Count, control.epoch);
  metrics.publishStoredMetrics();
}
