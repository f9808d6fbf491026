import type { RegionFunctions } from "./functions";
import { handlers } from "./handlers";
import type { RegionContext } from "./region-context";

/**
 * The relay's stream subscription settings: a failed batch (a publish that failed, an authority that could not be
 * read) is retried until it succeeds, never dropped to the sweep; its records leave only at the stream's 24 h
 * retention, to the on-failure queue.
 */
export const RELAY_SUBSCRIPTION = {
  batchSize: 100,
  bisectBatchOnFunctionError: true,
  maximumRetryAttempts: -1,
  maximumRecordAgeInSeconds: -1,
};
/** The stream job's subscription settings (its window is the handler's trigger). */
export const STREAM_JOB_SUBSCRIPTION = { batchSize: 100, maximumRetryAttempts: 10 };
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
          ...RELAY_SUBSCRIPTION,
          destinationConfig: { onFailure: { destinationArn: ctx.queues.relayFailures.arn } },
          filterCriteria: {
            filters: [
              {
                // Only this Region's own outbox writes: its replica's stream carries the other Region's too, and
                // relaying those would send every event from both Regions (a promoted Region's sweep re-sends
                // the other's leftovers, with their stored ids).
                pattern: JSON.stringify({
                  dynamodb: {
                    Keys: { pk: { S: [{ prefix: trigger.keyPrefix }] } },
                    NewImage: { origin_region: { S: [ctx.role] } },
                  },
                }),
              },
              ...(trigger.ownInsertsOfSkPrefix
                ? [
                    {
                      // This Region's own journal entries: each carries the event of the move that wrote it.
                      pattern: JSON.stringify({
                        eventName: ["INSERT"],
                        dynamodb: {
                          Keys: { sk: { S: [{ prefix: trigger.ownInsertsOfSkPrefix }] } },
                          NewImage: { origin_region: { S: [ctx.role] } },
                        },
                      }),
                    },
                  ]
                : []),
              ...(trigger.insertsOfSkPrefixes
                ? [
                    {
                      // From both Regions: a replicated entry is the one that can find its row behind.
                      pattern: JSON.stringify({
                        eventName: ["INSERT"],
                        dynamodb: {
                          Keys: { sk: { S: trigger.insertsOfSkPrefixes.map((prefix) => ({ prefix })) } },
                        },
                      }),
                    },
                  ]
                : []),
            ],
          },
        },
        opts,
      );
    } else if (trigger.kind === "ledger-stream-window") {
      // Part 8's job: the mapping's tumbling window carries the job's state between invocations and commits it
      // with the stream position; payment rows only.
      new aws.lambda.EventSourceMapping(
        `${ctx.prefix}${spec.id}Subscription`,
        {
          eventSourceArn: ctx.tables.ledger.streamArn,
          functionName: fn(spec.id).arn,
          startingPosition: "LATEST",
          ...STREAM_JOB_SUBSCRIPTION,
          tumblingWindowInSeconds: trigger.windowS,
          destinationConfig: { onFailure: { destinationArn: ctx.queues.relayFailures.arn } },
          filterCriteria: {
            filters: [{ pattern: JSON.stringify({ dynamodb: { Keys: { sk: { S: ["PAYMENT"] } } } }) }],
          },
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
