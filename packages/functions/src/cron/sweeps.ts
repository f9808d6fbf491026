import {
  type ClaimSweepReport,
  claimDocumentClient,
  clock,
  type DeadLetterRouting,
  loadConfig,
  peerEventsPublisher,
  regionGate,
  relayDeps,
  routeDeadLetters,
  type SweepReport,
  sweepExpiredClaims,
  sweepOutbox,
  sweepSettings,
} from "@eo/core";
import { AsyncMetric, countMetric } from "../async/async-metrics";
import { logger, metrics } from "../shared/observability";

type SweepsResult =
  | { outbox: SweepReport; claims?: ClaimSweepReport; dlq?: DeadLetterRouting }
  | { passive: true; dlq?: DeadLetterRouting };

/**
 * The scheduled sweeps: re-sends outbox items the relay left behind (a lost or trimmed stream), with their ids,
 * routes the events DLQ to the active Region's queue, and in MRSC mode deletes expired claim-table items, which no
 * TTL removes there. The failover script invokes it with `{"outbox_older_than_s": 0}` after a promotion, to
 * re-send the failed Region's leftovers at once.
 */
export async function handler(event?: { outbox_older_than_s?: unknown }): Promise<SweepsResult> {
  const gate = regionGate();
  // Either way the DLQ goes where the authority says: a partition's refusals are there (route-dead-letters.ts).
  const routed = await routeDeadLetters(gate, loadConfig().regionRole, {
    dlqUrl: process.env.EVENTS_DLQ_URL,
    ownQueue: relayDeps().publisher,
    peerQueue: peerEventsPublisher(),
  });
  const dlq = routed.routed + routed.kept > 0 ? routed : undefined;
  if (dlq) logger.warn("the sweep routed the events DLQ", { ...dlq });
  if (!(await gate.isActive())) return { passive: true, ...(dlq ? { dlq } : {}) };
  // Re-checked per item: Sweeps runs up to 120 s, longer than a failover should have to wait on one check.
  const stillActive = () => gate.isActive();
  const outbox = await sweepOutbox(relayDeps(), {
    ...sweepSettings(process.env, event?.outbox_older_than_s),
    stillActive,
  });
  countMetric(AsyncMetric.OutboxItemsSwept, outbox.resent);
  if (outbox.examined > 0) logger.warn("the sweep found outbox items the relay left behind", { ...outbox });
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  const config = loadConfig();
  if (config.claimMode !== "mrsc") return { outbox, ...(dlq ? { dlq } : {}) };
  const db = claimDocumentClient(config.claimRegion, true);
  const claims = await sweepExpiredClaims({ db, table: config.claimTable, clock }, 1_000, stillActive);
  if (claims.examined > 0) logger.info("expired claim-table items swept", { ...claims });
  return { outbox, claims, ...(dlq ? { dlq } : {}) };
}
