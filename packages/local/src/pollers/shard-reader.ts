import {
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type _Record as SdkRecord,
} from "@aws-sdk/client-dynamodb-streams";
import { errorText } from "./invoke-handler";
import { sleep, waitAfterEmptyRead } from "./timing";

/** GetRecords' own per-call limit; a larger batch size is served one page at a time. */
const GET_RECORDS_MAX = 1000;

/** Where a new mapping starts reading a shard: after what it already holds (AWS's LATEST), or at its oldest record. */
export type StartingPosition = "LATEST" | "TRIM_HORIZON";

/** What one shard reader needs from its poller. */
export interface ShardReaderOptions {
  streams: DynamoDBStreamsClient;
  streamArn: string;
  shardId: string;
  /** LATEST passes over what the shard already holds; shards that open later are always read from their start. */
  start: StartingPosition;
  batchSize: number;
  pollIntervalMs: number;
  signal: AbortSignal;
  /** Settles one page of records (retries included); the reader reads on only once it resolves. */
  deliver: (records: SdkRecord[]) => Promise<void>;
  /** A read refused before it is sent (the stream's read throttle, a fault); a Lambda mapping's readers only. */
  throttled?: () => Error | undefined;
  /** Called once the shard is closed and read to its end, so that the poller looks for its children. */
  onDone: () => void;
  log: (message: string) => void;
}

/** Reads one shard from its starting position to its end, starting no page before the previous one settled. */
export class ShardReader {
  /** The shard is closed and every record in it was delivered. */
  done = false;
  /** A page is being delivered. */
  busy = false;
  /** The last read's error, cleared by the next good read. */
  error: string | undefined;
  /** When the latest read that found nothing new started (performance.now()); idle() compares against it. */
  emptyReadStartedAt = Number.NEGATIVE_INFINITY;
  /** Settles when the reader has stopped, because the shard ended or the poller stopped. */
  readonly finished: Promise<void>;
  /** Settles once the reader first tried to take its position: records written after that are delivered. */
  readonly positioned: Promise<void>;
  private markPositioned!: () => void;
  private iterator: string | undefined;
  /** The sequence number of the last record delivered (or passed over); a lost iterator resumes right after it. */
  private checkpoint: string | undefined;
  /** LATEST only: the records the shard held at the start have been passed over. */
  private passedOver = false;
  /** The last read failed on an empty shard's iterator and was retried at once (once in a row). */
  private retriedEmptyShard = false;

  constructor(private readonly o: ShardReaderOptions) {
    this.positioned = new Promise((resolve) => (this.markPositioned = resolve));
    this.finished = this.run();
  }

  private async run(): Promise<void> {
    while (!this.o.signal.aborted && !this.done) await this.step();
    this.markPositioned();
    if (this.done) this.o.onDone();
  }

  private async step(): Promise<void> {
    const started = performance.now();
    try {
      this.iterator ??= await this.position();
      this.markPositioned();
      if (!this.iterator) {
        // The shard closed while LATEST passed over it: it holds nothing of ours.
        this.done = true;
        return;
      }
      const throttled = this.o.throttled?.();
      if (throttled) throw throttled;
      const page = await this.o.streams.send(
        new GetRecordsCommand({
          ShardIterator: this.iterator,
          Limit: Math.min(this.o.batchSize, GET_RECORDS_MAX),
        }),
      );
      this.error = undefined;
      this.retriedEmptyShard = false;
      await this.settle(page, started);
    } catch (err) {
      this.markPositioned();
      if (this.emptyShardIterator(err)) return;
      this.fail(err);
      await sleep(Math.max(this.o.pollIntervalMs, 250), this.o.signal);
    }
  }

  /** An iterator taken while the shard was empty failed once its first record came (see settle): take a new one now. */
  private emptyShardIterator(err: unknown): boolean {
    const trimmed = (err as { name?: string }).name === "TrimmedDataAccessException";
    if (!trimmed || this.checkpoint || this.retriedEmptyShard) return false;
    this.retriedEmptyShard = true;
    this.iterator = undefined;
    return true;
  }

  private async settle(page: GetRecordsCommandOutput, started: number): Promise<void> {
    const records = page.Records ?? [];
    if (records.length > 0) {
      this.busy = true;
      try {
        await this.o.deliver(records);
      } finally {
        this.busy = false;
      }
      if (this.o.signal.aborted) return;
      this.checkpoint = records.at(-1)?.dynamodb?.SequenceNumber ?? this.checkpoint;
    }
    // No next iterator: the shard is closed and this was its last page.
    if (!page.NextShardIterator) {
      this.done = true;
      return;
    }
    this.iterator = page.NextShardIterator;
    if (records.length === 0) {
      // DynamoDB Local: an iterator taken while the shard was empty reads nothing for ~100 ms after the first write,
      // then fails with TrimmedDataAccessException; until a record was read, each read starts at the trim horizon.
      if (!this.checkpoint) this.iterator = undefined;
      this.emptyReadStartedAt = started;
      await waitAfterEmptyRead(
        { streamArn: this.o.streamArn, shardId: this.o.shardId },
        this.o.pollIntervalMs,
        this.o.signal,
      );
    }
  }

  /** Starts at the starting position, or, after a lost iterator, right after the last delivered record. */
  private async position(): Promise<string | undefined> {
    if (this.checkpoint) return this.iteratorAt("AFTER_SEQUENCE_NUMBER", this.checkpoint);
    const first = await this.iteratorAt("TRIM_HORIZON");
    return this.o.start === "LATEST" && !this.passedOver ? this.passOver(first) : first;
  }

  /**
   * LATEST, with a checkpoint: reads what the shard holds now without delivering it, and keeps the last sequence
   * number, so that a lost iterator later resumes after it rather than at a LATEST that skipped newer records.
   */
  private async passOver(iterator: string): Promise<string | undefined> {
    let at = iterator;
    let last: string | undefined;
    for (;;) {
      const page = await this.o.streams.send(
        new GetRecordsCommand({ ShardIterator: at, Limit: GET_RECORDS_MAX }),
      );
      const records = page.Records ?? [];
      last = records.at(-1)?.dynamodb?.SequenceNumber ?? last;
      if (!page.NextShardIterator) return undefined;
      at = page.NextShardIterator;
      if (records.length === 0) break;
    }
    // Only a pass that reached the end counts: one cut short by an error starts over from the trim horizon.
    this.checkpoint = last;
    this.passedOver = true;
    return at;
  }

  private async iteratorAt(type: "TRIM_HORIZON" | "AFTER_SEQUENCE_NUMBER", seq?: string): Promise<string> {
    const out = await this.o.streams.send(
      new GetShardIteratorCommand({
        StreamArn: this.o.streamArn,
        ShardId: this.o.shardId,
        ShardIteratorType: type,
        ...(seq ? { SequenceNumber: seq } : {}),
      }),
    );
    if (!out.ShardIterator) throw new Error(`GetShardIterator gave no iterator for ${this.o.shardId}`);
    return out.ShardIterator;
  }

  private fail(err: unknown): void {
    // Expired or invalid iterators are recovered by asking for a new one from the checkpoint.
    this.iterator = undefined;
    if ((err as { name?: string }).name === "ResourceNotFoundException") {
      // The shard is gone from the stream (trimmed away): nothing more can be read from it.
      this.o.log(`shard ${this.o.shardId} no longer exists; leaving it`);
      this.done = true;
      return;
    }
    this.error = errorText(err);
    this.o.log(`reading shard ${this.o.shardId} failed: ${this.error}`);
  }
}
