import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { DynamoDBRecord } from "aws-lambda";
import type { Poller } from "../pollers/poller";
import { LOCAL_CREDENTIALS, localRegions } from "../stack/regions";
import { awaitIdle } from "./await-idle";
import { ChangeQueue } from "./change-queue";
import { type RecordContext, readReplicaRecord } from "./read-replica-record";
import { ReplicaState } from "./replica-state";
import { startReplicaStreams } from "./replica-streams";
import { ReplicationControls } from "./replication-controls";
import type { ItemChange, Role } from "./replication-types";
import { Shipper } from "./ship-changes";

/** The seed's assumed replication lag. */
export const DEFAULT_REPLICATION_LAG_MS = 1000;

/** How the local replicator is set up. */
export interface ReplicatorOptions {
  /** DynamoDB Local's endpoint; each Region is a database in it. */
  endpoint: string;
  /** The global tables; each exists under the same name in both Regions, with a NEW_AND_OLD_IMAGES stream. */
  tables: string[];
  /** The Regions' names (default: localRegions()). */
  regions?: Record<Role, string>;
  /** The lag in ms (default 1,000; the caller reads env REPLICATION_LAG_MS). */
  lagMs?: number;
  /** An extra delay per item change: up to this many ms at random, or what the function gives for the change. */
  jitterMs?: number | RecordContext["jitter"];
  /** How often a stream that had nothing new is read again (default 50 ms; each read costs DynamoDB Local ~2 ms). */
  pollIntervalMs?: number;
  /** A test seam: runs between the last-writer-wins check and the write, so a test can write into the target then. */
  beforeApply?: (change: ItemChange) => Promise<void>;
  log?: (line: string) => void;
}

/** What the replicator reports. */
export interface ReplicationStatus {
  lag_ms: number;
  paused: boolean;
  /** Changes read but not yet applied (or lost to a later write). */
  pending: number;
  /** Nothing queued, nothing being applied and every stream read to its end: both Regions hold the same writes. */
  idle: boolean;
  /** Per Region: whether it is up, and how many of its writes wait to be shipped. */
  regions: Record<Role, { up: boolean; unshipped: number }>;
}

/** A running replicator. */
export interface Replicator {
  /** Sets the lag, for changes already waiting too. */
  setLag(ms: number): void;
  /** Delivers nothing until resume(); changes keep being read and queued. */
  pause(): void;
  /** Delivers again, the changes queued meanwhile first. */
  resume(): void;
  /** The Region ships nothing and receives nothing until recoverRegion; its stream is still read and stamped. */
  failRegion(role: Role): void;
  /** The Region ships its unshipped writes and receives what waited for it. */
  recoverRegion(role: Role): void;
  status(): ReplicationStatus;
  /** Resolves when every stream was read and nothing is pending; rejects after `timeoutMs` (default 10 s). */
  awaitIdle(timeoutMs?: number): Promise<void>;
  /** Stops reading and delivering; what is still queued is dropped. */
  stop(): Promise<void>;
}

/** Starts replicating the tables between the two local Regions as DynamoDB global tables (MREC) do. */
export async function startReplicator(o: ReplicatorOptions): Promise<Replicator> {
  const regions = o.regions ?? regionNames();
  const log = o.log ?? ((line: string) => console.error(`[replicator] ${line}`));
  const clients = {
    primary: client(o.endpoint, regions.primary),
    standby: client(o.endpoint, regions.standby),
  };
  const state = new ReplicaState(regions);
  const queue = new ChangeQueue();
  const controls = new ReplicationControls(o.lagMs ?? DEFAULT_REPLICATION_LAG_MS, () => shipper.poke());
  // LOCAL_REPLICATION_POLL_MS: the simulation reads less often; each read is an event of its virtual time.
  const pollIntervalMs = o.pollIntervalMs ?? Number(process.env.LOCAL_REPLICATION_POLL_MS ?? 50);
  const shipper = new Shipper({
    ...{ queue, controls, clients, log, beforeApply: o.beforeApply },
    versionsOf: (table, role) => state.versionsOf(table, role),
    retryMs: 2 * pollIntervalMs,
  });
  const jitter = jitterOf(o.jitterMs);
  const read = (table: string, role: Role, records: DynamoDBRecord[]) => {
    const context = {
      table,
      role,
      versions: state.versionsOf(table, role),
      clock: state.clocks[role],
      jitter,
    };
    for (const record of records) {
      const change = readReplicaRecord(record, context);
      if (change) queue.add(change);
    }
    shipper.poke();
  };
  const pollers = await startReplicaStreams({ ...o, regions, pollIntervalMs, read }).catch((err) => {
    for (const c of Object.values(clients)) c.destroy();
    throw err;
  });
  shipper.start();
  return replicatorHandle({ controls, queue, shipper, state, pollers, clients });
}

interface Parts {
  controls: ReplicationControls;
  queue: ChangeQueue;
  shipper: Shipper;
  state: ReplicaState;
  pollers: Poller[];
  clients: Record<Role, DynamoDBClient>;
}

function replicatorHandle({ controls, queue, shipper, state, pollers, clients }: Parts): Replicator {
  const quiet = () => queue.size() === 0 && shipper.applying() === 0 && state.unread() === 0;
  const status = (): ReplicationStatus => ({
    lag_ms: controls.lagMs,
    paused: controls.paused,
    pending: queue.size(),
    idle: quiet(),
    regions: {
      primary: { up: controls.isUp("primary"), unshipped: queue.unshipped("primary") },
      standby: { up: controls.isUp("standby"), unshipped: queue.unshipped("standby") },
    },
  });
  const describe = () =>
    JSON.stringify({ ...status(), applying: shipper.applying(), unread: state.unread() });
  let stopped: Promise<void> | undefined;
  return {
    setLag: (ms) => controls.setLag(ms),
    pause: () => controls.setPaused(true),
    resume: () => controls.setPaused(false),
    failRegion: (role) => controls.setUp(role, false),
    recoverRegion: (role) => controls.setUp(role, true),
    status,
    awaitIdle: (timeoutMs = 10_000) => awaitIdle({ pollers, quiet, describe }, timeoutMs),
    stop: () => {
      stopped ??= (async () => {
        await shipper.stop();
        await Promise.all(pollers.map((p) => p.stop()));
        for (const c of Object.values(clients)) c.destroy();
      })();
      return stopped;
    },
  };
}

function regionNames(): Record<Role, string> {
  const { primary, standby } = localRegions();
  return { primary: primary.region, standby: standby.region };
}

function client(endpoint: string, region: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region, credentials: LOCAL_CREDENTIALS });
}

function jitterOf(jitter: ReplicatorOptions["jitterMs"]): RecordContext["jitter"] {
  if (typeof jitter === "function") return jitter;
  const most = jitter ?? 0;
  return () => (most > 0 ? Math.random() * most : 0);
}
