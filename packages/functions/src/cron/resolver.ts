import { paymentDeps, regionGate, settleUnknowns } from "@eo/core";
import { logger } from "../shared/observability";

/** The scheduled resolver: settles unknown and stale payments and refunds with their derived keys. */
export async function handler(): Promise<
  Awaited<ReturnType<typeof settleUnknowns>> | { passive: true; why?: string }
> {
  const deps = paymentDeps();
  const gate = regionGate();
  // Only the active Region replays PSP calls. Read now, not from the cache that the handlers share: a view from
  // before a failover would make an inherited row look like its own. A Region that cannot read it is passive.
  const control = await gate.activeNow();
  if (!control) return { passive: true };
  // The pass asks again before each PSP call: a failover in the middle of a pass stops its replays.
  const stillActive = async () => (await gate.activeNow())?.epoch === control.epoch;
  const report = await settleUnknowns(deps, { epoch: control.epoch, stillActive });
  if (report.examined > 0 || report.stoppedPassive) logger.info("resolver pass", { ...report });
  // An anomaly stays on every pass's report until a person settles it with the PSP (README runbook).
  if (report.anomalies.length > 0)
    logger.error("payments the PSP contradicts", { anomalies: report.anomalies });
  return report;
}
