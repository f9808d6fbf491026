import {
  type ClaimSweepReport,
  claimDocumentClient,
  clock,
  type DeadLetterHandOver,
  handOverDeadLetters,
  loadConfig,
  peerEventsPublisher,
  regionGate,
  relayDeps,
  type SweepReport,
  sweepExpiredClaims,
  sweepOutbox,
  sweepSettings,
} from "@eo/core";
import { AsyncMetric, countMetric } from "../async/async-metrics";
import { logger, metrics } from "../shared/observability";

type SweepsResult =
  | { outbox: SweepReport; claims?: ClaimSweepReport }
  | ({ passive: true } & Partial<DeadLetterHandOver>);

/**
 * The scheduled sweeps: re-sends outbox items the relay left behind (a lost or trimmed stream), with their ids,
 * and in MRSC mode deletes expired claim-table items, which no TTL removes there. The failover script invokes it
 * with `{"outbox_older_than_s": 0}` after a promotion, to re-send the failed Region's leftovers at once.
 */
export async function handler(event?: { outbox_older_than_s?: unknown }): Promise<SweepsResult> {
  const gate = regionGate();
  if (!(await gate.isActive())) {
    // A passive Region sweeps nothing of its own, but hands what its events DLQ holds to the active Region.
    const dlq = await handOverDeadLetters(
      gate,
      loadConfig().regionRole,
      process.env.EVENTS_DLQ_URL,
      peerEventsPublisher(),
    );
    if (dlq.handed_over + dlq.kept > 0)
      logger.warn("a passive Region handed its dead letters over", { ...dlq });
    return { passive: true, ...(dlq.handed_over + dlq.kept > 0 ? dlq : {}) };
  }
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
