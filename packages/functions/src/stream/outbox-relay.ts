import {
  catchUpRefunds,
  loadConfig,
  type OutboxItem,
  outboxItemFromImage,
  paymentDeps,
  refundsJournalled,
  regionGate,
  relayDeps,
  relayOutbox,
} from "@eo/core";
import type { DynamoDBRecord } from "aws-lambda";
import { AsyncMetric, countMetric } from "../async/async-metrics";
import { logger } from "../shared/observability";

/**
 * The outbox relay's part of a ledger stream batch: each new outbox event (on its journal entry, or an item of its
 * own) is sent to the FIFO queue with its stored event id, then taken out of the outbox. A failure throws, so that
 * the mapping retries the batch in order (until it succeeds; the relay has no give-up of its own).
 */
export async function relayRecords(records: DynamoDBRecord[]): Promise<void> {
  // The mapping's relay filters bring each refund's journal entry: a row behind it is caught up (catch-up-refund.ts).
  const caughtUp = await catchUpRefunds(paymentDeps(), regionGate(), refundsJournalled(records));
  if (caughtUp > 0) logger.warn("rows caught up with their replicated refund", { caughtUp });
  const own = loadConfig().regionRole;
  // A Region the authority does not name leaves its outbox items where they are: they replicate, and the active
  // Region's sweep sends them with their stored ids. A planned failover's drain lets the old Region relay first,
  // until its longest delivery before the switch. An authority that cannot be read throws: the mapping retries the
  // batch (until it succeeds) instead of leaving its events to a sweep minutes later.
  if (!(await regionGate().mayDeliver())) {
    logger.info("relay skipped: this Region is passive; its outbox waits for the active Region's sweep");
    return;
  }
  const items = records
    .filter((r) => r.eventName === "INSERT")
    .map((r) => outboxItemFromImage(r.dynamodb?.NewImage as Parameters<typeof outboxItemFromImage>[0]))
    .filter((item): item is OutboxItem => item !== undefined && item.origin_region === own);
  // Only this Region's own events (a refund's entry from the other Region came for the catch-up above). The same
  // event ids meet the queue's dedup and the inbox.
  if (items.length === 0) return;
  try {
    const { published } = await relayOutbox(relayDeps(), items);
    countMetric(AsyncMetric.OutboxEventsRelayed, published.length);
  } catch (err) {
    countMetric(AsyncMetric.RelayFailures);
    logger.warn("relay batch failed; the stream retries it", {
      events: items.map((i) => i.event_id),
      error: err as Error,
    });
    throw err;
  }
}
