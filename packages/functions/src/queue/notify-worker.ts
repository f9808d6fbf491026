import { processPartialResponse, SqsFifoPartialProcessorAsync } from "@aws-lambda-powertools/batch";
import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import {
  type EventOutcome,
  handleEvent,
  handOverWhenPassive,
  InjectedCrash,
  loadConfig,
  maxReceiveCount,
  parsePaymentEvent,
  peerEventsPublisher,
  Refusal,
  regionGate,
  workerDeps,
} from "@eo/core";
import middy from "@middy/core";
import type { Context, SQSEvent, SQSRecord } from "aws-lambda";
import { AsyncMetric, countMetric, publishCountedMetrics } from "../async/async-metrics";
import { logger } from "../shared/observability";

/**
 * One delivery: the inbox transaction, then the notification step, retrying a throttled provider within what is
 * left of the invocation; a throw leaves the message for redelivery.
 */
async function processRecord(record: SQSRecord, context: Context): Promise<void> {
  try {
    const budget = { remainingMs: () => context.getRemainingTimeInMillis() };
    const event = parsePaymentEvent(record.body);
    // A passive Region sends the event on to the active one (same ids) instead of crediting beside it.
    const delivery = await handOverWhenPassive(
      regionGate(),
      loadConfig().regionRole,
      event,
      peerEventsPublisher(),
    );
    if (delivery === "handed-over") return countMetric(AsyncMetric.EventsHandedOver);
    const outcome = await handleEvent(workerDeps(), event, budget);
    countOutcome(outcome);
    for (const f of outcome.failed)
      logger.warn("notification refused for good; intent FAILED, the event goes on", {
        event_id: event.event_id,
        channel: f.channel,
        codes: f.codes,
      });
  } catch (err) {
    const receives = Number(record.attributes.ApproximateReceiveCount ?? 1);
    const last = receives >= maxReceiveCount();
    // SQS moves a message to the DLQ instead of delivering it again once it was received maxReceiveCount times.
    countMetric(AsyncMetric.WorkerFailures);
    if (last) countMetric(AsyncMetric.DlqArrivals);
    const details = {
      message_id: record.messageId,
      group: record.attributes.MessageGroupId,
      receives,
      error: err as Error,
    };
    if (last) logger.error("event failed its last delivery; it goes to the DLQ", details);
    // An injected crash is a drill, and a passive Region's refusal the gate at work, not faults to page anyone about.
    else if (err instanceof InjectedCrash || err instanceof Refusal)
      logger.warn("injected crash; the event will be redelivered", details);
    else logger.error("event failed; it will be redelivered", details);
    throw err;
  }
}

function countOutcome(o: EventOutcome): void {
  if (o.duplicate) {
    countMetric(AsyncMetric.InboxDuplicatesDropped);
    countMetric(
      AsyncMetric.NotificationsFinishedByRedelivery,
      o.sent.length + o.suppressed.length + o.failed.length,
    );
  }
  countMetric(
    AsyncMetric.LogicalDuplicatesDropped,
    o.suppressed.filter((s) => s.reason === "logical-duplicate").length,
  );
  countMetric(
    AsyncMetric.NotificationsOverUserCap,
    o.suppressed.filter((s) => s.reason === "user-cap").length,
  );
  countMetric(AsyncMetric.DedupStoreFailedOpen, o.failedOpen);
  countMetric(AsyncMetric.NotificationsFailedPermanently, o.failed.length);
  countMetric(AsyncMetric.NotificationSendRetries, o.retries);
}

/**
 * The worker on the events FIFO queue, with partial batch failures: a failed event fails the rest of its
 * merchant's group in this batch (order within a merchant) while other merchants' events go on.
 */
export const handler = middy((event: SQSEvent, context: Context) => {
  // A processor per invocation: it holds the batch's state, and the local runtime runs batches side by side.
  const processor = new SqsFifoPartialProcessorAsync();
  return processPartialResponse(event, (record: SQSRecord) => processRecord(record, context), processor, {
    context,
    skipGroupOnError: true,
    throwOnFullBatchFailure: false,
  });
})
  .use(injectLambdaContext(logger))
  .use(publishCountedMetrics());
