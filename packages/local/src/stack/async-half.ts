import { SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDeviceStore, documentClient, loadConfig, merchantBalance } from "@eo/core";
import type { Context, DynamoDBStreamEvent, SQSEvent } from "aws-lambda";
import type { Poller } from "../pollers/poller";
import type { ScheduledJob } from "../pollers/scheduler";
import type { StartingPosition } from "../pollers/shard-reader";
import { startSqsPoller } from "../pollers/sqs-poller";
import type { DiscardedRecords } from "../pollers/stream-delivery";
import { startStreamPoller } from "../pollers/stream-poller";
import { type PushProvider, startPushProvider } from "../push/push-provider";
import type { Route } from "../runtime/http-front";
import { EVENTS_MAX_RECEIVE_COUNT, EVENTS_VISIBILITY_TIMEOUT_S } from "./create-resources";
import type { LocalRouteSources } from "./local-routes";
import { LOCAL_CREDENTIALS } from "./regions";
import type { Emulators } from "./start-emulators";

/** What the stack hands the asynchronous half (relay, worker, push, email) when it starts it. */
export interface AsyncHalfInput {
  emulators: Emulators;
  apiUrl: string;
  /** Sets handler environment variables; must be called before any poller invokes a handler. */
  applyEnv: (env: Record<string, string>) => void;
  sweepsEveryMs: number;
  /** Where the relay's stream mapping starts (default LATEST, as the stacks' mapping). */
  startingPosition?: StartingPosition;
}

/** The running asynchronous half. */
export interface AsyncHalf {
  routes: Route[];
  localRoutes: NonNullable<LocalRouteSources["extra"]>;
  jobs: Record<string, ScheduledJob>;
  healthy(): Record<string, boolean>;
  stop(): Promise<void>;
}

// A job whose schedule is off still answers POST /_local/run/{job}.
const NEVER = 2 ** 40;
/** The stacks' relay mapping retries a failing batch this often before giving it to the on-failure queue. */
const RELAY_MAX_RETRY_ATTEMPTS = 10;
/** The stacks' worker timeout; locally it is also kept below the queue's visibility timeout. */
const WORKER_TIMEOUT_MS = 20_000;

/**
 * Starts the local push provider, the outbox relay on the ledger's stream and the notify worker on the events
 * FIFO queue, as the stacks' event source mappings do in AWS. Tunables for tests, from the environment:
 * EVENTS_VISIBILITY_TIMEOUT_S (the queue's, default 30), RELAY_MAX_RETRY_ATTEMPTS (default 10), PUSH_PORT.
 */
export async function startAsyncHalf(input: AsyncHalfInput): Promise<AsyncHalf> {
  const r = input.emulators.regions.primary;
  const apiPort = Number(new URL(input.apiUrl).port);
  const push = await startPushProvider({
    region: r.region,
    port: envNumber("PUSH_PORT", 0),
    avoidPorts: [apiPort],
  });
  const stops: Array<() => Promise<void>> = [() => push.stop()];
  const stop = async () => {
    // Pollers first, then the push provider they send to.
    for (const s of stops.splice(0).reverse()) await s().catch(() => undefined);
  };
  try {
    input.applyEnv({
      AWS_ENDPOINT_URL_SNS: push.url,
      PUSH_APNS_APP_ARN: push.apps.apns,
      PUSH_FCM_APP_ARN: push.apps.fcm,
      EMAIL_FROM: process.env.EMAIL_FROM ?? "receipts@effectively-once.local",
      EVENTS_MAX_RECEIVE_COUNT: String(EVENTS_MAX_RECEIVE_COUNT),
    });
    // create-resources.ts made the queue with this visibility timeout (tests shorten it).
    const visibilityS = envNumber("EVENTS_VISIBILITY_TIMEOUT_S", EVENTS_VISIBILITY_TIMEOUT_S);
    const pollers = await startPollers(input.emulators, visibilityS, input.startingPosition);
    stops.push(...pollers.map((p) => () => p.stop()));
    return {
      routes: [],
      localRoutes: inspectionRoutes(push),
      jobs: { sweeps: { everyMs: input.sweepsEveryMs > 0 ? input.sweepsEveryMs : NEVER, run: runSweeps } },
      healthy: () => ({
        "push-provider": push.healthy(),
        "outbox-relay": pollers[0]?.healthy() ?? false,
        "notify-worker": pollers[1]?.healthy() ?? false,
      }),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The relay and the worker, on the same handler modules that Lambda runs, loaded first as a cold start would. */
async function startPollers(
  emu: Emulators,
  visibilityS: number,
  startingPosition: StartingPosition | undefined,
): Promise<Poller[]> {
  const r = emu.regions.primary;
  const relay = (await import("@eo/functions/stream/outbox-relay")).handler as (
    e: DynamoDBStreamEvent,
    c: Context,
  ) => Promise<void>;
  const worker = (await import("@eo/functions/queue/notify-worker")).handler;
  const relayPoller = await startStreamPoller({
    name: "outbox-relay",
    endpoint: emu.endpoints.dynamodb,
    region: r.region,
    tableName: r.ledgerTable,
    handler: relay,
    batchSize: 100,
    startingPosition,
    maxRetryAttempts: envNumber("RELAY_MAX_RETRY_ATTEMPTS", RELAY_MAX_RETRY_ATTEMPTS),
    onFailure: (info) => reportRelayFailure(emu, info),
  });
  try {
    const workerPoller = await startSqsPoller({
      name: "notify-worker",
      endpoint: emu.endpoints.sqs,
      region: r.region,
      queueUrl: r.queues.events,
      handler: (event: SQSEvent, context: Context) => worker(event, context),
      batchSize: 10,
      concurrency: 4,
      // Below the visibility timeout, as in AWS, so that a slow run never overlaps its own redelivery.
      timeoutMs: Math.min(WORKER_TIMEOUT_MS, visibilityS * 1000 - 250),
    });
    return [relayPoller, workerPoller];
  } catch (err) {
    await relayPoller.stop();
    throw err;
  }
}

/** The relay mapping's on-failure destination, as in AWS: a description of the records it gave up on. */
async function reportRelayFailure(emu: Emulators, info: DiscardedRecords): Promise<void> {
  const sqs = sqsClient(emu);
  const records = info.records.map((rec) => ({
    keys: rec.dynamodb?.Keys,
    sequence: rec.dynamodb?.SequenceNumber,
  }));
  try {
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: emu.regions.primary.queues.relayFailures,
        MessageBody: JSON.stringify({ error: info.error, attempts: info.attempts, records }),
      }),
    );
  } finally {
    sqs.destroy();
  }
}

async function runSweeps(): Promise<unknown> {
  return (await import("@eo/functions/cron/sweeps")).handler();
}

/** `GET /_local/devices/{caller}` (the phone's screen) and `GET /_local/merchants/{merchant_id}`. */
function inspectionRoutes(push: PushProvider): AsyncHalf["localRoutes"] {
  return [
    {
      method: "GET",
      pattern: /^\/_local\/devices\/([^/]+)$/,
      answer: async (m) => {
        const devices = await new DynamoDeviceStore(documentClient(), loadConfig().consumerTable).list(
          decodeURIComponent(m[1] ?? ""),
        );
        return { status: 200, body: push.screenOf(devices.map((d) => d.endpoint_arn)) };
      },
    },
    {
      method: "GET",
      pattern: /^\/_local\/merchants\/([^/]+)$/,
      answer: async (m) => ({ status: 200, body: await merchantBalance(decodeURIComponent(m[1] ?? "")) }),
    },
  ];
}

function sqsClient(emu: Emulators): SQSClient {
  return new SQSClient({
    endpoint: emu.endpoints.sqs,
    region: emu.regions.primary.region,
    credentials: LOCAL_CREDENTIALS,
  });
}

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name}=${raw} must be a non-negative number`);
  return n;
}
