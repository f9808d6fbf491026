import type { SimClock } from "../world/clock";
import { type HeldRecord, type Shard, type StreamChange, StreamShards } from "./stream-shards";

/** What a stream writes into each record, as a table's StreamSpecification chooses. */
export type StreamViewType = "KEYS_ONLY" | "NEW_IMAGE" | "OLD_IMAGE" | "NEW_AND_OLD_IMAGES";

/** A service error as the DynamoDB Streams API names it; the handler renders it as the wire's `__type`. */
export class StreamsError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

/** The model's settings; every time comes from the world's clock. */
export interface StreamModelOptions {
  clock: SimClock;
  region: string;
  accountId?: string;
  /** About four hours on AWS. */
  rolloverMs?: number;
  /** 24 hours on AWS. */
  retentionMs?: number;
  /** An iterator is good for 15 minutes after it is issued. */
  iteratorLifeMs?: number;
  /** AWS allows about five GetRecords a second per shard; more are throttled (LimitExceededException). */
  readsPerShardPerSecond?: number;
  /** The tables whose stream is on, as the table store describes them (their ARN and label come from it). */
  discover?: () => DiscoveredStream[];
}

/** A table's stream as its table store names it. */
export interface DiscoveredStream {
  table: string;
  arn: string;
  label: string;
  viewType: StreamViewType;
}

interface TableStream {
  table: string;
  arn: string;
  /** The sequence number of the stream's latest record (0 before any). */
  last: bigint;
  label: string;
  viewType: StreamViewType;
  shards: StreamShards;
}

interface Iterator {
  arn: string;
  shardId: string;
  /** The next record to read has a sequence number at least this. */
  from: bigint;
  issuedAtMs: number;
}

const HOUR = 3_600_000;

/**
 * DynamoDB Streams for one Region: each stream-enabled table's changes in shards that roll over and age out, read
 * through iterators that expire, with GetRecords throttled per shard as AWS does (a second reader is what trips it).
 */
export class StreamModel {
  private readonly streams = new Map<string, TableStream>();
  private readonly reads = new Map<string, number[]>();
  private throttledUntilMs = 0;
  private labels = 0;
  private lastSequence = 0n;
  /** Per stream: its latest record when each shard was last read (what a reader had the chance to see). */
  private readonly seenAtRead = new Map<string, bigint>();
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(private readonly o: StreamModelOptions) {}

  /** Turns a table's stream on; a later enable (a new stream) gets a new label and ARN, as on AWS. */
  enable(table: string, viewType: StreamViewType, named?: { arn: string; label: string }): string {
    const label =
      named?.label ?? `${new Date(this.o.clock.now()).toISOString().replace("Z", "")}${this.labels++}`;
    const account = this.o.accountId ?? "000000000000";
    const arn = named?.arn ?? `arn:aws:dynamodb:${this.o.region}:${account}:table/${table}/stream/${label}`;
    const policy = {
      clock: this.o.clock,
      rolloverMs: this.o.rolloverMs ?? 4 * HOUR,
      retentionMs: this.o.retentionMs ?? 24 * HOUR,
    };
    const shards = new StreamShards(String(this.labels).padStart(4, "0"), policy, this.lastSequence + 1n);
    this.streams.set(table, { table, arn, label, viewType, shards, last: 0n });
    return arn;
  }

  /** The table's stream ARN (DescribeTable's LatestStreamArn), if it has a stream. */
  arnOf(table: string): string | undefined {
    return this.streams.get(table)?.arn;
  }

  /** Records one applied write; a table without a stream records nothing. */
  record(table: string, change: StreamChange, sequence: bigint): void {
    if (sequence > this.lastSequence) this.lastSequence = sequence;
    if (!this.streams.has(table)) this.discoverNew();
    const stream = this.streams.get(table);
    if (!stream) return;
    stream.shards.append(trimToView(change, stream.viewType), sequence);
    stream.last = sequence;
    const waiting = this.waiting.get(stream.arn) ?? [];
    this.waiting.delete(stream.arn);
    for (const wake of waiting) wake();
  }

  /**
   * Calls `wake` once the stream has a record its reader of `shardId` has not had the chance to see: at once when
   * one came after that reader's last read, else at the next append. Answers the cancel. The simulation's pollers
   * wait on this instead of polling an idle stream, so an idle hour costs no events.
   */
  whenNewRecords(arn: string, shardId: string, wake: () => void): () => void {
    const stream = [...this.streams.values()].find((st) => st.arn === arn);
    if (!stream) return () => undefined;
    if (stream.last > (this.seenAtRead.get(`${arn}|${shardId}`) ?? 0n)) {
      queueMicrotask(wake);
      return () => undefined;
    }
    const list = this.waiting.get(arn) ?? [];
    list.push(wake);
    this.waiting.set(arn, list);
    return () => {
      const i = list.indexOf(wake);
      if (i >= 0) list.splice(i, 1);
    };
  }

  /** A fault: every GetRecords is throttled until the given time. */
  throttleReadsUntil(ms: number): void {
    this.throttledUntilMs = ms;
  }

  listStreams(table?: string): Array<{ StreamArn: string; TableName: string; StreamLabel: string }> {
    this.discoverNew();
    return [...this.streams.values()]
      .filter((s) => !table || s.table === table)
      .map((s) => ({ StreamArn: s.arn, TableName: s.table, StreamLabel: s.label }));
  }

  describeStream(arn: string): { stream: TableStream; shards: Shard[] } {
    const stream = this.byArn(arn);
    return { stream, shards: stream.shards.visible() };
  }

  /** Issues an iterator at a position in a shard, checking the position against what the shard still holds. */
  shardIterator(arn: string, shardId: string, type: string, sequence?: string): string {
    const { stream, shard } = this.shardOf(arn, shardId);
    const seq = (): bigint => {
      if (!sequence || !/^\d{21,40}$/.test(sequence))
        throw new StreamsError("ValidationException", `Invalid SequenceNumber: ${sequence}`);
      return BigInt(sequence);
    };
    const from = (() => {
      if (type === "TRIM_HORIZON") return stream.shards.horizon(shard);
      if (type === "LATEST")
        return (shard.records.at(-1)?.sequence ?? stream.shards.horizon(shard) - 1n) + 1n;
      if (type === "AT_SEQUENCE_NUMBER") return seq();
      if (type === "AFTER_SEQUENCE_NUMBER") return seq() + 1n;
      throw new StreamsError("ValidationException", `Invalid ShardIteratorType: ${type}`);
    })();
    if (from < stream.shards.horizon(shard) && shard.records.length > 0)
      throw new StreamsError(
        "TrimmedDataAccessException",
        "The operation attempted to read past the oldest stream record in a shard.",
      );
    return encode({ arn, shardId, from, issuedAtMs: this.o.clock.now() });
  }

  /** Reads up to `limit` records from an iterator; a closed shard read to its end gives no next iterator. */
  getRecords(token: string, limit = 1000): { records: HeldRecord[]; next?: string; stream: TableStream } {
    if (limit < 1 || limit > 1000)
      throw new StreamsError("ValidationException", "1 validation error detected: Limit must be 1 to 1000");
    const it = decode(token);
    if (this.o.clock.now() - it.issuedAtMs > (this.o.iteratorLifeMs ?? 15 * 60_000))
      throw new StreamsError("ExpiredIteratorException", "Iterator expired");
    const { stream, shard } = this.shardOf(it.arn, it.shardId);
    this.countRead(it.arn, it.shardId);
    this.seenAtRead.set(`${it.arn}|${it.shardId}`, stream.last);
    if (shard.records.length > 0 && it.from < stream.shards.horizon(shard))
      throw new StreamsError(
        "TrimmedDataAccessException",
        "The operation attempted to read past the oldest stream record in a shard.",
      );
    const records = shard.records.filter((r) => r.sequence >= it.from).slice(0, limit);
    const from = (records.at(-1)?.sequence ?? it.from - 1n) + 1n;
    const closedAndRead = shard.endingSequence !== undefined && from > shard.endingSequence;
    const next = closedAndRead ? undefined : encode({ ...it, from, issuedAtMs: this.o.clock.now() });
    return { records, next, stream };
  }

  private countRead(arn: string, shardId: string): void {
    const now = this.o.clock.now();
    if (now < this.throttledUntilMs)
      throw new StreamsError("LimitExceededException", "Rate exceeded for shard (a fault of the simulation)");
    const key = `${arn}|${shardId}`;
    const recent = (this.reads.get(key) ?? []).filter((t) => now - t < 1_000);
    if (recent.length >= (this.o.readsPerShardPerSecond ?? 5))
      throw new StreamsError("LimitExceededException", `Rate exceeded for shard ${shardId}`);
    recent.push(now);
    this.reads.set(key, recent);
  }

  /** Takes up the streams the table store turned on since the last look (a table created with a stream). */
  private discoverNew(): void {
    for (const d of this.o.discover?.() ?? [])
      if (this.streams.get(d.table)?.arn !== d.arn) this.enable(d.table, d.viewType, d);
  }

  private byArn(arn: string): TableStream {
    const find = () => [...this.streams.values()].find((s) => s.arn === arn);
    if (!find()) this.discoverNew();
    const stream = find();
    if (!stream)
      throw new StreamsError(
        "ResourceNotFoundException",
        `Requested resource not found: Stream: ${arn} not found`,
      );
    return stream;
  }

  private shardOf(arn: string, shardId: string): { stream: TableStream; shard: Shard } {
    const stream = this.byArn(arn);
    const shard = stream.shards.find(shardId);
    if (!shard)
      throw new StreamsError(
        "ResourceNotFoundException",
        `Requested resource not found: Shard does not exist`,
      );
    return { stream, shard };
  }
}

function trimToView(change: StreamChange, view: StreamViewType): StreamChange {
  const { oldImage, newImage, ...rest } = change;
  if (view === "KEYS_ONLY") return rest;
  if (view === "NEW_IMAGE") return { ...rest, newImage };
  if (view === "OLD_IMAGE") return { ...rest, oldImage };
  return change;
}

function encode(it: Iterator): string {
  const text = JSON.stringify({ ...it, from: it.from.toString() });
  return Buffer.from(text, "utf8").toString("base64");
}

function decode(token: string): Iterator {
  try {
    const raw = JSON.parse(Buffer.from(token, "base64").toString("utf8")) as Iterator & { from: string };
    if (typeof raw.arn !== "string" || typeof raw.shardId !== "string") throw new Error("shape");
    return { ...raw, from: BigInt(raw.from) };
  } catch {
    throw new StreamsError("ValidationException", "Invalid ShardIterator");
  }
}
