import { SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import type { RegionRole } from "@eo/core";
import { type HandlerSpec, handlers } from "../../../../stacks/handlers";
import type { Poller } from "../pollers/poller";
import type { StartingPosition } from "../pollers/shard-reader";
import { startSqsPoller } from "../pollers/sqs-poller";
import type { DiscardedRecords } from "../pollers/stream-delivery";
import { startStreamPoller } from "../pollers/stream-poller";
import { LOCAL_CREDENTIALS } from "../stack/regions";
import type { Emulators } from "../stack/start-emulators";
import type { RegionLambdas } from "./region-lambdas";

/**
 * The stacks' ledger-stream mapping retries a failing batch until it succeeds (stacks/workers.ts: -1, with no record
 * age); in AWS its records leave only at the stream's 24 h retention. Tests shorten it to see the on-failure queue.
 */
export const RELAY_MAX_RETRY_ATTEMPTS = Number.POSITIVE_INFINITY;
/** The stacks' worker timeout; locally it is also kept below the queue's visibility timeout. */
const WORKER_TIMEOUT_MS = 20_000;

/** What a Region's event source mappings need to know. */
export interface RegionPollerInput {
  role: RegionRole;
  emulators: Emulators;
  lambdas: RegionLambdas;
  visibilityS: number;
  startingPosition?: StartingPosition;
  maxRetryAttempts?: number;
  /** True while the Region is down: nothing is delivered, positions hold. */
  paused: () => boolean;
}

type LedgerStreamTrigger = Extract<HandlerSpec["trigger"], { kind: "ledger-stream" }>;

const spec = (id: string) => {
  const found = handlers.find((h) => h.id === id);
  if (!found) throw new Error(`no handler ${id} in stacks/handlers.ts`);
  return found;
};

/**
 * The Region's one reader of its ledger stream (the relay and the stream job share it, as the stacks map them) and the
 * worker on its events queue.
 */
export async function startRegionPollers(input: RegionPollerInput): Promise<Poller[]> {
  const { emulators: emu, role, lambdas } = input;
  const r = emu.regions[role];
  const ledger = spec("LedgerStream");
  if (ledger.trigger.kind !== "ledger-stream") throw new Error("LedgerStream must be on the ledger stream");
  const ledgerPoller = await startStreamPoller({
    name: `${role}-ledger-stream`,
    endpoint: emu.endpoints.dynamodb,
    region: r.region,
    tableName: r.ledgerTable,
    handler: lambdas.handlerOf(ledger),
    batchSize: 100,
    startingPosition: input.startingPosition,
    maxRetryAttempts: input.maxRetryAttempts ?? RELAY_MAX_RETRY_ATTEMPTS,
    // As stacks/workers.ts: the relay's failures are the batch's (a publish, the authority), so halving finds nothing.
    bisectBatchOnFunctionError: false,
    onFailure: (info) => reportRelayFailure(emu, role, info),
    filter: ledgerStreamFilter(ledger.trigger, role),
    // The stream job's window (or `STREAM_JOB_WINDOW_S`, which tests and the story set short so that windows close
    // within a run). Lambda reads a shard four times a second; 100 ms keeps the local relay quick.
    tumblingWindowS: Number(process.env.STREAM_JOB_WINDOW_S ?? ledger.trigger.job.windowS),
    paused: input.paused,
  });
  try {
    const workerPoller = await startSqsPoller({
      name: `${role}-notify-worker`,
      endpoint: emu.endpoints.sqs,
      region: r.region,
      queueUrl: r.queues.events,
      handler: lambdas.handlerOf(spec("NotifyWorker")),
      batchSize: 10,
      concurrency: 4,
      // Below the visibility timeout, as in AWS, so that a slow run never overlaps its own redelivery.
      timeoutMs: Math.min(WORKER_TIMEOUT_MS, input.visibilityS * 1000 - 250),
      paused: input.paused,
    });
    return [ledgerPoller, workerPoller];
  } catch (err) {
    await ledgerPoller.stop();
    throw err;
  }
}

/**
 * The mapping's filter criteria, as stacks/workers.ts sets them: the job's payment rows; for the relay, outbox items
 * and journal entries this Region wrote (the replica's stream also carries the other Region's writes; those reach the
 * queue through the promoted Region's sweep), or either Region's inserts of the sort keys the trigger names by prefix
 * (a refund attempt's journal entry).
 */
function ledgerStreamFilter(trigger: LedgerStreamTrigger, role: RegionRole) {
  const { keyPrefix: prefix, ownInsertsOfSkPrefix: ownSk, insertsOfSkPrefixes: anySk } = trigger.relay;
  return (record: {
    eventName?: string;
    dynamodb?: { Keys?: Record<string, { S?: string }>; NewImage?: Record<string, { S?: string }> };
  }) => {
    const own = record.dynamodb?.NewImage?.origin_region?.S === role;
    const sk = record.dynamodb?.Keys?.sk?.S;
    const insert = record.eventName === "INSERT";
    return (
      sk === trigger.job.sk ||
      ((record.dynamodb?.Keys?.pk?.S?.startsWith(prefix) ?? false) && own) ||
      (insert && own && (sk?.startsWith(ownSk) ?? false)) ||
      (insert && anySk.some((p) => sk?.startsWith(p) ?? false))
    );
  };
}

/** The mapping's on-failure destination, as in AWS: a description of the records it gave up on. */
async function reportRelayFailure(emu: Emulators, role: RegionRole, info: DiscardedRecords): Promise<void> {
  const r = emu.regions[role];
  const sqs = new SQSClient({
    endpoint: emu.endpoints.sqs,
    region: r.region,
    credentials: LOCAL_CREDENTIALS,
  });
  const records = info.records.map((rec) => ({
    keys: rec.dynamodb?.Keys,
    sequence: rec.dynamodb?.SequenceNumber,
  }));
  try {
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: r.queues.relayFailures,
        MessageBody: JSON.stringify({ error: info.error, attempts: info.attempts, records }),
      }),
    );
  } finally {
    sqs.destroy();
  }
}
