/**
 * The settings of each Region's events FIFO queue, shared by the stacks (stacks/queues.ts) and the local stack
 * (packages/local/src/stack/create-resources.ts), so that both make the same queue. Plain data: vitest imports it too.
 */
import { handlers } from "./handlers";

/** AWS's advice for a queue a Lambda function reads: a visibility timeout of at least 6× the function's timeout. */
export const VISIBILITY_PER_CONSUMER_TIMEOUT = 6;

/** The timeout of the one handler the events queue invokes (the notify worker), from the manifest. */
export function eventsConsumerTimeoutS(): number {
  const consumers = handlers.filter((h) => h.trigger.kind === "events-queue");
  const [consumer] = consumers;
  if (consumers.length !== 1 || !consumer) throw new Error("the events queue must have exactly one consumer");
  return consumer.timeoutSeconds;
}

/**
 * The events queue. High-throughput FIFO: deduplication and the throughput quota per message group (without it,
 * about 300 sends/s for the whole queue).
 *
 * Deduplication per message group drops exactly what a queue-wide window dropped, because every dedup id we send is
 * derived from one event's id (`{event_id}` from the relay and the sweep, `{event_id}:handover` from a passive
 * Region, `{event_id}:dead-letter:{round}` from a routed DLQ) and every send of an event carries the same group, its
 * merchant (core/outbox/event-publisher.ts: MessageGroupId = merchant_id; a payment's merchant is part of its
 * fingerprint and never changes). Two sends with one dedup id are therefore always in one group: nothing relies on
 * deduplication across groups.
 */
export const EVENTS_QUEUE = {
  /** 6 × the worker's timeout: Lambda's poller can retry a throttled batch before the messages show again. */
  visibilityTimeoutS: VISIBILITY_PER_CONSUMER_TIMEOUT * eventsConsumerTimeoutS(),
  /** Receives of one event before it moves to the DLQ. */
  maxReceiveCount: 5,
  deduplicationScope: "messageGroup",
  fifoThroughputLimit: "perMessageGroupId",
} as const;
