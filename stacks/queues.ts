import type { RegionContext } from "./region";

/** Seconds a received event stays invisible to other consumers; the worker's timeout must stay below it. */
export const EVENTS_VISIBILITY_TIMEOUT_S = 30;
/** Receives of one event before it moves to the DLQ. */
export const EVENTS_MAX_RECEIVE_COUNT = 5;
const FOURTEEN_DAYS_S = 14 * 24 * 3600;

/** One Region's queues: the events FIFO queue, its FIFO DLQ, and the relay's on-failure queue. */
export interface RegionQueues {
  events: sst.aws.Queue;
  eventsDlq: sst.aws.Queue;
  relayFailures: sst.aws.Queue;
}

/** Creates one Region's queues on that Region's provider. */
export function createQueues(ctx: Pick<RegionContext, "prefix" | "provider">): RegionQueues {
  const opts = { provider: ctx.provider };
  // A FIFO queue's dead-letter queue must be FIFO too.
  const eventsDlq = new sst.aws.Queue(
    `${ctx.prefix}EventsDlq`,
    { fifo: true, transform: { queue: { messageRetentionSeconds: FOURTEEN_DAYS_S } } },
    opts,
  );
  // Deduplication ids are the derived event ids ({payment_id}:{STATE}), never content-based.
  const events = new sst.aws.Queue(
    `${ctx.prefix}Events`,
    {
      fifo: true,
      visibilityTimeout: `${EVENTS_VISIBILITY_TIMEOUT_S} seconds`,
      dlq: { queue: eventsDlq.arn, retry: EVENTS_MAX_RECEIVE_COUNT },
    },
    opts,
  );
  // Stream batches the relay gave up on (after bisecting and retrying) are described here.
  const relayFailures = new sst.aws.Queue(
    `${ctx.prefix}RelayFailures`,
    { transform: { queue: { messageRetentionSeconds: FOURTEEN_DAYS_S } } },
    opts,
  );
  return { events, eventsDlq, relayFailures };
}
