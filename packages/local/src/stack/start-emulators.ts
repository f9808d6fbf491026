import { startDynamoDbLocal } from "../emulators/dynamodb-local";
import { resolvePort } from "../emulators/free-port";
import type { ManagedProcess } from "../emulators/managed-process";
import { startFauxqs, startSesLocal } from "../emulators/node-services";
import { createQueues, createTables, type QueueUrls } from "./create-resources";
import { localRegions, type RegionResources } from "./regions";

export interface EmulatorPorts {
  dynamodb?: number;
  sqs?: number;
  ses?: number;
}

/**
 * A DynamoDB Local that is already running, lent for one stack's life (the test suite's warm pool,
 * test/support/dynamodb-pool.ts): its tables are the caller's to clear, and `process.stop()` gives it back.
 */
export interface LentDynamoDb {
  endpoint: string;
  process: ManagedProcess;
}

/** The running emulators and both Regions' resources in them. */
export interface Emulators {
  endpoints: { dynamodb: string; sqs: string; ses: string };
  processes: ManagedProcess[];
  regions: {
    primary: RegionResources & { queues: QueueUrls };
    standby: RegionResources & { queues: QueueUrls };
  };
  stop(): Promise<void>;
}

/**
 * Starts DynamoDB Local, fauxqs and aws-ses-v2-local on 127.0.0.1 (ports from the arguments, then
 * env DYNAMODB_PORT / SQS_PORT / SES_PORT, 0 = a free port) and creates both Regions' resources.
 */
export async function startEmulators(
  ports: EmulatorPorts = {},
  lend?: () => Promise<LentDynamoDb | undefined>,
): Promise<Emulators> {
  const fixed = [
    ports.dynamodb ?? envPort("DYNAMODB_PORT"),
    ports.sqs ?? envPort("SQS_PORT"),
    ports.ses ?? envPort("SES_PORT"),
  ].some((port) => port !== undefined && port > 0);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(ports, await lend?.());
    } catch (err) {
      // The emulators are other processes, so their ports are picked here and bound there: another process (a
      // parallel test file's emulator) may bind one in between. Fixed ports fail at once; picked ones try again.
      if (fixed || attempt >= START_ATTEMPTS) throw err;
      console.error(`emulators failed to start (${(err as Error).message}); trying again on new ports`);
    }
  }
}

const START_ATTEMPTS = 3;

async function startOnce(ports: EmulatorPorts, lent: LentDynamoDb | undefined): Promise<Emulators> {
  const p = {
    dynamodb: lent ? 0 : await resolvePort(ports.dynamodb ?? envPort("DYNAMODB_PORT")),
    sqs: await resolvePort(ports.sqs ?? envPort("SQS_PORT")),
    ses: await resolvePort(ports.ses ?? envPort("SES_PORT")),
  };
  const { primary, standby } = localRegions();
  const started = await Promise.allSettled([
    lent ? Promise.resolve(lent.process) : startDynamoDbLocal(p.dynamodb),
    startFauxqs(p.sqs, primary.region),
    startSesLocal(p.ses),
  ]);
  const processes = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const stop = async () => void (await Promise.all(processes.map((proc) => proc.stop())));
  const failed = started.find((s) => s.status === "rejected");
  if (failed) {
    await stop();
    throw (failed as PromiseRejectedResult).reason;
  }
  const endpoints = {
    dynamodb: lent?.endpoint ?? `http://127.0.0.1:${p.dynamodb}`,
    sqs: `http://127.0.0.1:${p.sqs}`,
    ses: `http://127.0.0.1:${p.ses}`,
  };
  try {
    const withQueues = async (r: RegionResources) => {
      await createTables(endpoints.dynamodb, r);
      return { ...r, queues: await createQueues(endpoints.sqs, r) };
    };
    const regions = { primary: await withQueues(primary), standby: await withQueues(standby) };
    return { endpoints, processes, regions, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

function envPort(name: string): number | undefined {
  const v = process.env[name];
  if (v === undefined || v === "") return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name}=${v} is not a port number`);
  return n;
}
