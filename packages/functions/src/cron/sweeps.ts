import {
  type ClaimSweepReport,
  claimDocumentClient,
  clock,
  loadConfig,
  regionGate,
  relayDeps,
  type SweepReport,
  sweepExpiredClaims,
  sweepOutbox,
  sweepSettings,
} from "@eo/core";
import { AsyncMetric, countMetric } from "../async/async-metrics";
import { logger, metrics } from "../shared/observability";

type SweepsResult = { outbox: SweepReport; claims?: ClaimSweepReport } | { passive: true };

/**
 * The scheduled sweeps: re-sends outbox items the relay left behind (a lost or trimmed stream), with their ids,
 * and in MRSC mode deletes expired claim-table items, which no TTL removes there. The failover script invokes it
 * with `{"outbox_older_than_s": 0}` after a promotion, to re-send the failed Region's leftovers at once.
 */
export async function handler(event?: { outbox_older_than_s?: unknown }): Promise<SweepsResult> {
  if (!(await regionGate().isActive())) return { passive: true };
  const outbox = await sweepOutbox(relayDeps(), sweepSettings(process.env, event?.outbox_older_than_s));
  countMetric(AsyncMetric.OutboxItemsSwept, outbox.resent);
  if (outbox.examined > 0) logger.warn("the sweep found outbox items the relay left behind", { ...outbox });
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  const config = loadConfig();
  if (config.claimMode !== "mrsc") return { outbox };
  const db = claimDocumentClient(config.claimRegion, true);
  const claims = await sweepExpiredClaims({ db, table: config.claimTable, clock });
  if (claims.examined > 0) logger.info("expired claim-table items swept", { ...claims });
  return { outbox, claims };
}
