import { DescribeTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  type _Record as SdkRecord,
  type Shard,
} from "@aws-sdk/client-dynamodb-streams";
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { LOCAL_CREDENTIALS } from "../stack/regions";
import { errorText, invokeHandler } from "./invoke-handler";
import type { Poller } from "./poller";
import { readThrottled } from "./read-throttle";
import { ShardReader, type StartingPosition } from "./shard-reader";
import { type DiscardedRecords, deliverInOrder } from "./stream-delivery";
import { type RecordSource, toLambdaRecord } from "./stream-record";
import { Waker, waitUntil } from "./timing";
import { MAX_WINDOW_S } from "./tumbling-windows";
import { WindowedShards } from "./windowed-shards";

// biome-ignore lint/suspicious/noConfusingVoidType: a handler may return nothing, as DynamoDBStreamHandler allows.
type StreamResult = void | DynamoDBBatchResponse;

/** A DynamoDB-stream-triggered Lambda handler; it may report partial failures. */
export type StreamHandler = (event: DynamoDBStreamEvent, context: Context) => Promise<StreamResult>;

/** The settings of a local DynamoDB stream event source mapping; defaults are the stacks' (LATEST, bisect on). */
export interface StreamPollerOptions {
  /** The function's name, used in its Lambda context and in log lines. */
  name: string;
  endpoint: string;
  region: string;
  tableName: string;
  handler: StreamHandler;
  batchSize?: number;
  maxRetryAttempts?: number;
  bisectBatchOnFunctionError?: boolean;
  /**
   * Where the mapping starts: LATEST (default, as the stacks' relay mapping) delivers only records written after
   * the poller started, so rows written before wait for the sweeps as in AWS; TRIM_HORIZON also delivers those.
   */
  startingPosition?: StartingPosition;
  /** The on-failure destination; by default the discarded records' sequence numbers go to stderr. */
  onFailure?: (info: DiscardedRecords) => Promise<void>;
  pollIntervalMs?: number;
  timeoutMs?: number;
  /**
   * The mapping's filter criteria: records it rejects never reach the function and are checkpointed past, as
   * with an event source mapping's FilterCriteria.
   */
  filter?: (record: DynamoDBRecord) => boolean;
  /** While this says true (the local Region is down), nothing is delivered and the shard's position holds. */
  paused?: () => boolean;
  /**
   * The mapping's TumblingWindowInSeconds (1 to 900): the function gets a window, the state it returned last and a
   * final invocation per window (tumbling-windows.ts). Unset: plain batches, as the relay's mapping.
   */
  tumblingWindowS?: number;
  /**
   * Who reads: a Lambda event source mapping (default), or the global table's own replication, which AWS runs on the
   * stream beside the one mapping (the local replicator stands in for it).
   */
  reader?: "lambda" | "replication";
}

type Optional = "onFailure" | "filter" | "paused" | "tumblingWindowS" | "reader";
type Settings = Required<Omit<StreamPollerOptions, Optional>> & Pick<StreamPollerOptions, Optional>;

/** How often the stream is described again to find shards that opened since. */
const DESCRIBE_EVERY_MS = 1000;
// DynamoDB Local has been measured making a record readable up to ~11 ms after the write returned, so a
// read that "found nothing" only counts for idle() if it started this long after idle() was called.
const IDLE_SETTLE_MS = 25;

/** Starts doing locally what a Lambda event source mapping on the table's DynamoDB stream does. */
export async function startStreamPoller(options: StreamPollerOptions): Promise<Poller> {
  const o: Settings = {
    ...options,
    batchSize: options.batchSize ?? 100,
    maxRetryAttempts: options.maxRetryAttempts ?? 10,
    bisectBatchOnFunctionError: options.bisectBatchOnFunctionError ?? true,
    startingPosition: options.startingPosition ?? "LATEST",
    // LOCAL_STREAM_POLL_MS: the simulation polls at Lambda's own rate (4 a second), which costs it fewer events.
    pollIntervalMs: options.pollIntervalMs ?? Number(process.env.LOCAL_STREAM_POLL_MS ?? 100),
    timeoutMs: options.timeoutMs ?? 30_000,
  };
  const w = o.tumblingWindowS;
  if (w !== undefined && !(Number.isInteger(w) && w >= 1 && w <= MAX_WINDOW_S))
    throw new Error(`${o.name}: a tumbling window is 1 to ${MAX_WINDOW_S} whole seconds, not ${w}`);
  const config = { endpoint: o.endpoint, region: o.region, credentials: LOCAL_CREDENTIALS };
  const streamArn = await findStreamArn(config, o.tableName);
  const release = claimStream(`${o.reader ?? "lambda"}|${o.endpoint}|${o.region}|${streamArn}`, o);
  const mapping = new StreamMapping(o, new DynamoDBStreamsClient(config), streamArn, release);
  try {
    await mapping.discover(o.startingPosition);
  } catch (err) {
    await mapping.stop();
    throw err;
  }
  mapping.watch();
  return mapping;
}

/** Who reads each stream now, by kind of reader, endpoint, Region and stream ARN: one of each kind at most. */
const readers = new Map<string, string>();

/**
 * Takes a stream for one mapping, or refuses: DynamoDB Streams serves two readers per shard, and AWS's Lambda guide
 * recommends one for a global table's stream (its replication reads it too), where a second is throttled and shows
 * only as iterator age. Locally the rule holds by construction. Answers the release, for stop().
 */
function claimStream(key: string, o: Pick<StreamPollerOptions, "name" | "tableName" | "region">): () => void {
  const holder = readers.get(key);
  if (holder !== undefined)
    throw new Error(
      `${o.name}: the stream of ${o.tableName} in ${o.region} already has a reader (${holder}); a global table's ` +
        "stream gets one Lambda reader per shard (AWS allows two and recommends one): dispatch inside that mapping",
    );
  readers.set(key, o.name);
  return () => {
    if (readers.get(key) === o.name) readers.delete(key);
  };
}

async function findStreamArn(
  config: { endpoint: string; region: string },
  tableName: string,
): Promise<string> {
  const ddb = new DynamoDBClient({ ...config, credentials: LOCAL_CREDENTIALS });
  try {
    const { Table } = await ddb.send(new DescribeTableCommand({ TableName: tableName }));
    if (!Table?.StreamSpecification?.StreamEnabled || !Table.LatestStreamArn) {
      throw new Error(`table ${tableName} has no stream enabled`);
    }
    return Table.LatestStreamArn;
  } finally {
    ddb.destroy();
  }
}

class StreamMapping implements Poller {
  private readonly abort = new AbortController();
  private readonly readers = new Map<string, ShardReader>();
  private readonly waker = new Waker();
  private readonly source: RecordSource;
  private watching: Promise<void> = Promise.resolve();
  private describeError: string | undefined;
  private describeStartedAt = Number.NEGATIVE_INFINITY;
  private shardEndedAt = Number.NEGATIVE_INFINITY;
  /** Shards already closed when a LATEST mapping started: there is nothing after their latest record. */
  private readonly passed = new Set<string>();
  /** The shards' tumbling windows, when the mapping has one. */
  private readonly windowed: WindowedShards | undefined;

  constructor(
    private readonly o: Settings,
    private readonly streams: DynamoDBStreamsClient,
    private readonly streamArn: string,
    private readonly release: () => void,
  ) {
    // DynamoDB Local puts "ddblocal" where AWS has the Region; handlers may parse the ARN, so give them the real one.
    this.source = { region: o.region, eventSourceARN: streamArn.replace(":ddblocal:", `:${o.region}:`) };
    this.windowed = o.tumblingWindowS
      ? new WindowedShards({
          windowS: o.tumblingWindowS,
          eventSourceARN: this.source.eventSourceARN,
          invoke: (event) => invokeHandler(o.handler, event, o.name, o.timeoutMs),
          deliverBatch: (records, invoke) => this.deliverBatch(records, invoke),
          signal: this.abort.signal,
          log: (line) => this.log(line),
        })
      : undefined;
  }

  /**
   * Lists the stream's shards and starts a reader for each new one whose parent was read to its end. The first
   * call, with the mapping's starting position, waits until its readers hold their positions; shards that open
   * later are read from their trim horizon, as in AWS, so that nothing written after the start is missed.
   */
  async discover(start?: StartingPosition): Promise<void> {
    const started = performance.now();
    const shards = await listShards(this.streams, this.streamArn);
    const listed = new Set(shards.map((s) => s.ShardId));
    const fresh: ShardReader[] = [];
    for (const shard of shards) {
      const id = shard.ShardId;
      if (!id || this.readers.has(id) || this.passed.has(id)) continue;
      const latest = start === "LATEST";
      if (latest && shard.SequenceNumberRange?.EndingSequenceNumber) this.passed.add(id);
      else if (latest || this.parentFinished(shard, listed)) {
        const reader = this.readShard(id, latest ? "LATEST" : "TRIM_HORIZON");
        this.readers.set(id, reader);
        fresh.push(reader);
      }
    }
    this.describeStartedAt = started;
    if (start) await Promise.all(fresh.map((r) => r.positioned));
  }

  /** Describes the stream again every DESCRIBE_EVERY_MS, and at once when a shard closes. */
  watch(): void {
    this.watching = (async () => {
      const signal = this.abort.signal;
      while (!signal.aborted) {
        await this.waker.pause(DESCRIBE_EVERY_MS, signal);
        if (signal.aborted) return;
        if (!this.o.paused?.()) this.windowed?.closeEnded();
        try {
          await this.discover();
          this.describeError = undefined;
        } catch (err) {
          this.describeError = errorText(err);
          this.log(`DescribeStream failed: ${this.describeError}`);
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.watching;
    await Promise.all([...this.readers.values()].map((r) => r.finished));
    this.streams.destroy();
    this.release();
  }

  healthy(): boolean {
    if (this.abort.signal.aborted || this.describeError) return false;
    return [...this.readers.values()].every((r) => r.error === undefined);
  }

  async idle(): Promise<void> {
    const since = performance.now() + IDLE_SETTLE_MS;
    await waitUntil(() => this.abort.signal.aborted || this.caughtUp(since));
  }

  private caughtUp(since: number): boolean {
    // A closed shard's children are only known after the next describe.
    if (this.shardEndedAt >= this.describeStartedAt) return false;
    return [...this.readers.values()].every((r) => r.done || (!r.busy && r.emptyReadStartedAt >= since));
  }

  /** Children wait for their parent, as in AWS, so that a key's changes stay in order across a shard rollover. */
  private parentFinished(shard: Shard, listed: Set<string | undefined>): boolean {
    const parent = shard.ParentShardId;
    if (!parent || this.passed.has(parent)) return true;
    const reader = this.readers.get(parent);
    if (reader) return reader.done;
    // A parent that is no longer listed was trimmed away: there is nothing left to wait for.
    return !listed.has(parent);
  }

  private readShard(shardId: string, start: StartingPosition): ShardReader {
    return new ShardReader({
      streams: this.streams,
      streamArn: this.streamArn,
      shardId,
      start,
      batchSize: this.o.batchSize,
      pollIntervalMs: this.o.pollIntervalMs,
      signal: this.abort.signal,
      deliver: (records) => this.deliver(records, shardId),
      onDone: () => {
        this.shardEndedAt = performance.now();
        this.waker.poke();
      },
      log: (message) => this.log(message),
      // AWS throttles the mapping's reads; the global table's own replication is not ours to throttle.
      ...(this.o.reader === "replication" ? {} : { throttled: readThrottled }),
    });
  }

  private async deliver(sdkRecords: SdkRecord[], shardId: string): Promise<void> {
    const filter = this.o.filter;
    const all = sdkRecords.map((r) => toLambdaRecord(r, this.source));
    const records = filter ? all.filter((r) => filter(r)) : all;
    if (records.length === 0) return;
    if (this.windowed) return this.windowed.deliver(records, shardId);
    const invoke = (batch: DynamoDBRecord[]) =>
      invokeHandler(this.o.handler, { Records: batch }, this.o.name, this.o.timeoutMs);
    await this.deliverBatch(records, invoke);
  }

  private async deliverBatch(
    records: DynamoDBRecord[],
    invoke: (b: DynamoDBRecord[]) => ReturnType<typeof invokeHandler>,
  ) {
    await deliverInOrder(records, invoke, {
      maxRetryAttempts: this.o.maxRetryAttempts,
      bisectBatchOnFunctionError: this.o.bisectBatchOnFunctionError,
      retryDelayMs: this.o.pollIntervalMs,
      onFailure: this.o.onFailure ?? ((info) => this.logDiscarded(info)),
      signal: this.abort.signal,
      paused: this.o.paused,
    });
  }

  private async logDiscarded(info: DiscardedRecords): Promise<void> {
    const seqs = info.records.map((r) => r.dynamodb?.SequenceNumber).join(", ");
    this.log(
      `discarded ${info.records.length} record(s) after ${info.attempts} attempt(s) [${seqs}]: ${info.error}`,
    );
  }

  private log(message: string): void {
    console.error(`[stream-poller ${this.o.name}] ${message}`);
  }
}

async function listShards(streams: DynamoDBStreamsClient, streamArn: string): Promise<Shard[]> {
  const shards: Shard[] = [];
  let start: string | undefined;
  do {
    const { StreamDescription: d } = await streams.send(
      new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }),
    );
    shards.push(...(d?.Shards ?? []));
    start = d?.LastEvaluatedShardId;
  } while (start);
  return shards;
}
