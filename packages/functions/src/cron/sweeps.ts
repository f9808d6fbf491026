import { isRegionActive, relayDeps, type SweepReport, sweepOutbox, sweepSettings } from "@eo/core";
import { AsyncMetric, countMetric } from "../async/async-metrics";
import { logger, metrics } from "../shared/observability";

/** The scheduled sweep: re-sends outbox items the relay left behind (a lost or trimmed stream), with their ids. */
export async function handler(): Promise<{ outbox: SweepReport } | { passive: true }> {
  if (!isRegionActive()) return { passive: true };
  const outbox = await sweepOutbox(relayDeps(), sweepSettings());
  countMetric(AsyncMetric.OutboxItemsSwept, outbox.resent);
  if (outbox.examined > 0) logger.warn("the sweep found outbox items the relay left behind", { ...outbox });
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  return { outbox };
}
