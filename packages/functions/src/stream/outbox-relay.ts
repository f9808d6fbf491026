import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import { isRegionActive, type OutboxItem, outboxItemFromImage, relayDeps, relayOutbox } from "@eo/core";
import middy from "@middy/core";
import type { DynamoDBStreamEvent } from "aws-lambda";
import { AsyncMetric, countMetric, publishCountedMetrics } from "../async/async-metrics";
import { logger } from "../shared/observability";

/**
 * The outbox relay on the ledger's stream: each new outbox item is sent to the FIFO queue with its stored event
 * id, then deleted. A failure throws, so the event source mapping retries the batch in order.
 */
export const handler = middy(async (event: DynamoDBStreamEvent): Promise<void> => {
  const items = event.Records.filter((r) => r.eventName === "INSERT")
    .map((r) => outboxItemFromImage(r.dynamodb?.NewImage as Parameters<typeof outboxItemFromImage>[0]))
    .filter((item): item is OutboxItem => item !== undefined);
  // The passive standby sees the replicated outbox too; only the active Region relays it (a promoted
  // standby's sweep re-sends what was left, with the same event ids).
  if (items.length === 0 || !isRegionActive()) return;
  try {
    const { published } = await relayOutbox(relayDeps(), items);
    countMetric(AsyncMetric.OutboxEventsRelayed, published.length);
  } catch (err) {
    logger.warn("relay batch failed; the stream retries it", {
      events: items.map((i) => i.event_id),
      error: err as Error,
    });
    throw err;
  }
})
  .use(injectLambdaContext(logger))
  .use(publishCountedMetrics());
