import { MetricUnit } from "@aws-lambda-powertools/metrics";
import type { MiddlewareObj } from "@middy/core";
import { metrics } from "../shared/observability";

/** The async path's Powertools metric names: what an operator alarms on. */
export const AsyncMetric = {
  /** Deliveries whose event the inbox already held: the credit was skipped. */
  InboxDuplicatesDropped: "InboxDuplicatesDropped",
  /** Intents a redelivery found PENDING and finished ("ready means notified"). */
  NotificationsFinishedByRedelivery: "NotificationsFinishedByRedelivery",
  /** Events that failed their last receive: SQS moves them to the DLQ next. */
  DlqArrivals: "DlqArrivals",
  /** Events a passive Region's worker sent on to the active Region's queue instead of applying them. */
  EventsHandedOver: "EventsHandedOver",
  OutboxEventsRelayed: "OutboxEventsRelayed",
  OutboxItemsSwept: "OutboxItemsSwept",
  LogicalDuplicatesDropped: "LogicalDuplicatesDropped",
  NotificationsOverUserCap: "NotificationsOverUserCap",
  DedupStoreFailedOpen: "DedupStoreFailedOpen",
  /** Intents a provider refused for good (rejected address, disabled endpoint, paused account): marked FAILED. */
  NotificationsFailedPermanently: "NotificationsFailedPermanently",
  /** Stream batches the relay failed to publish (the stream retries them in order). */
  RelayFailures: "RelayFailures",
  /** Ledger stream batches the stream job gave up to its failure queue (the recompute command adds them). */
  StreamJobBatchesSkipped: "StreamJobBatchesSkipped",
  /** Events whose processing threw on one receive (SQS redelivers them; the last one goes to the DLQ). */
  WorkerFailures: "WorkerFailures",
  /** Provider calls retried after throttling or a 5xx inside one invocation. */
  NotificationSendRetries: "NotificationSendRetries",
} as const;

/** Adds `n` to a count metric; zero adds nothing, so that quiet invocations publish nothing. */
export function countMetric(name: (typeof AsyncMetric)[keyof typeof AsyncMetric], n = 1): void {
  if (n > 0) metrics.addMetric(name, MetricUnit.Count, n);
}

/** Publishes what the invocation counted, if anything (Powertools warns about an empty flush). */
export function publishCountedMetrics(): MiddlewareObj {
  const flush = async () => {
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  };
  return { after: flush, onError: flush };
}
