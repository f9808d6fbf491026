import { paymentDeps, regionGate, settleUnknowns } from "@eo/core";
import { logger } from "../shared/observability";

/** The scheduled resolver: settles unknown and stale payments and refunds with their derived keys. */
export async function handler(): Promise<Awaited<ReturnType<typeof settleUnknowns>> | { passive: true }> {
  const deps = paymentDeps();
  // Only the active Region replays PSP calls; the standby's turn comes when it is promoted. Read now, not from the
  // cache that the handlers share: a view from before a failover would make an inherited row look like its own.
  const control = await regionGate().controlNow();
  if (control?.active !== deps.config.regionRole) return { passive: true };
  const report = await settleUnknowns(deps, { epoch: control.epoch });
  if (report.examined > 0) logger.info("resolver pass", { ...report });
  // An anomaly stays on every pass's report until a person settles it with the PSP (README runbook).
  if (report.anomalies.length > 0)
    logger.error("payments the PSP contradicts", { anomalies: report.anomalies });
  return report;
}
