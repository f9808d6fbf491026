import type { RegionRole } from "./config";
import { EVENTS_QUEUE } from "./events-queue";
import type { RegionProviders } from "./region-base";

const FOURTEEN_DAYS_S = 14 * 24 * 3600;

/**
 * One Region's queues: the events FIFO queue, its FIFO DLQ, and a failure queue for each consumer of the ledger's
 * stream (the relay's, the mapping's on-failure destination; the stream job's, which it writes itself).
 */
export interface RegionQueues {
  events: sst.aws.Queue;
  eventsDlq: sst.aws.Queue;
  relayFailures: sst.aws.Queue;
  streamJobFailures: sst.aws.Queue;
}

/** Both Regions' queues, by Region role. */
export interface Queues {
  byRole: Record<RegionRole, RegionQueues>;
}

/**
 * Creates both Regions' queues before either Region's functions, because each Region's functions are told the
 * other Region's events queue (a passive Region's worker hands its events over to the active one).
 */
export function createQueues(providers: RegionProviders): Queues {
  return {
    byRole: {
      primary: createRegionQueues("Primary", providers.primary),
      standby: createRegionQueues("Standby", providers.standby),
    },
  };
}

function createRegionQueues(prefix: "Primary" | "Standby", provider: aws.Provider): RegionQueues {
  const opts = { provider };
  // A FIFO queue's dead-letter queue must be FIFO too.
  const eventsDlq = new sst.aws.Queue(
    `${prefix}EventsDlq`,
    { fifo: true, transform: { queue: { messageRetentionSeconds: FOURTEEN_DAYS_S } } },
    opts,
  );
  // Deduplication ids are derived from the event ids ({payment_id}:{STATE}), never content-based; high-throughput
  // FIFO, whose per-group deduplication drops what a queue-wide one did (why: stacks/events-queue.ts).
  const events = new sst.aws.Queue(
    `${prefix}Events`,
    {
      fifo: true,
      visibilityTimeout: `${EVENTS_QUEUE.visibilityTimeoutS} seconds`,
      dlq: { queue: eventsDlq.arn, retry: EVENTS_QUEUE.maxReceiveCount },
      transform: {
        queue: {
          deduplicationScope: EVENTS_QUEUE.deduplicationScope,
          fifoThroughputLimit: EVENTS_QUEUE.fifoThroughputLimit,
        },
      },
    },
    opts,
  );
  // Stream batches the relay gave up on (after bisecting and retrying) are described here.
  const relayFailures = new sst.aws.Queue(
    `${prefix}RelayFailures`,
    { transform: { queue: { messageRetentionSeconds: FOURTEEN_DAYS_S } } },
    opts,
  );
  // Batches the stream job gave up on, with the events it would have counted: `npm run recompute-totals` adds them.
  const streamJobFailures = new sst.aws.Queue(
    `${prefix}StreamJobFailures`,
    { transform: { queue: { messageRetentionSeconds: FOURTEEN_DAYS_S } } },
    opts,
  );
  return { events, eventsDlq, relayFailures, streamJobFailures };
}
