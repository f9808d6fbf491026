import type { RegionFunctions } from "./functions";
import { handlers, type Trigger } from "./handlers";
import type { RegionContext } from "./region-context";

/**
 * The ledger stream's one subscription per Region (the relay and the stream job share it: AWS recommends one reader
 * per shard of a global table's stream). A failed batch is the relay's (the job gives its own up to its failure
 * queue, packages/core run-job-part.ts): it is retried until it succeeds, never dropped to the sweep; its records
 * leave only at the stream's 24 h retention, to the relay-failures queue. No bisecting: the relay's failures are the
 * batch's (a publish, the authority), and halving a tumbling window's batch finds nothing either.
 */
export const LEDGER_STREAM_SUBSCRIPTION = {
  batchSize: 100,
  bisectBatchOnFunctionError: false,
  maximumRetryAttempts: -1,
  maximumRecordAgeInSeconds: -1,
};
/** The worker's queue subscription settings. */
export const WORKER_SUBSCRIPTION = { size: 10, partialResponses: true };

/**
 * Wires one Region's background handlers: the outbox relay on that Region's ledger stream (the replica's stream
 * in the standby Region), the notify worker on the events queue, and the scheduled resolver and sweeps.
 */
export function createWorkers(ctx: RegionContext, functions: RegionFunctions): void {
  const fn = (id: string) => {
    const found = functions[id];
    if (!found) throw new Error(`${ctx.prefix}: no function for ${id}`);
    return found;
  };
  const opts = { provider: ctx.provider };
  for (const spec of handlers) {
    const { trigger } = spec;
    if (trigger.kind === "ledger-stream") {
      const streamArn = ctx.tables.ledger.streamArn;
      if (!streamArn) throw new Error(`${ctx.prefix}: the ledger table has no stream`);
      // A mapping of our own (not Dynamo.subscribe) so that the standby Region can subscribe to its replica's stream.
      new aws.lambda.EventSourceMapping(
        `${ctx.prefix}${spec.id}Subscription`,
        {
          eventSourceArn: streamArn,
          functionName: fn(spec.id).arn,
          // Rows written while no mapping reads the stream are re-sent by the sweeps.
          startingPosition: "LATEST",
          ...LEDGER_STREAM_SUBSCRIPTION,
          // Part 8's job: the window carries the job's state between invocations and commits it with the position.
          tumblingWindowInSeconds: trigger.job.windowS,
          destinationConfig: { onFailure: { destinationArn: ctx.queues.relayFailures.arn } },
          filterCriteria: { filters: ledgerStreamFilters(trigger, ctx.role) },
        },
        opts,
      );
    } else if (trigger.kind === "events-queue") {
      ctx.queues.events.subscribe(fn(spec.id).arn, { batch: WORKER_SUBSCRIPTION });
    } else if (trigger.kind === "schedule") {
      new sst.aws.CronV2(
        `${ctx.prefix}${spec.id}Schedule`,
        { function: fn(spec.id), schedule: `rate(${trigger.rate})` },
        opts,
      );
    }
  }
}

/**
 * The mapping's filters (four, of Lambda's five per mapping): the job's payment rows, and the relay's records.
 */
function ledgerStreamFilters(trigger: Extract<Trigger, { kind: "ledger-stream" }>, role: string) {
  const { relay } = trigger;
  return [
    { pattern: JSON.stringify({ dynamodb: { Keys: { sk: { S: [trigger.job.sk] } } } }) },
    {
      // Only this Region's own outbox writes: its replica's stream carries the other Region's too, and relaying those
      // would send every event from both Regions (a promoted Region's sweep re-sends the other's leftovers, with their
      // stored ids).
      pattern: JSON.stringify({
        dynamodb: {
          Keys: { pk: { S: [{ prefix: relay.keyPrefix }] } },
          NewImage: { origin_region: { S: [role] } },
        },
      }),
    },
    {
      // This Region's own journal entries: each carries the event of the move that wrote it.
      pattern: JSON.stringify({
        eventName: ["INSERT"],
        dynamodb: {
          Keys: { sk: { S: [{ prefix: relay.ownInsertsOfSkPrefix }] } },
          NewImage: { origin_region: { S: [role] } },
        },
      }),
    },
    {
      // From both Regions: a replicated entry is the one that can find its row behind.
      pattern: JSON.stringify({
        eventName: ["INSERT"],
        dynamodb: { Keys: { sk: { S: relay.insertsOfSkPrefixes.map((prefix) => ({ prefix })) } } },
      }),
    },
  ];
}
