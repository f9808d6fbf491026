import {
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type _Record as SdkRecord,
} from "@aws-sdk/client-dynamodb-streams";
import { errorText } from "./invoke-handler";
import { sleep } from "./timing";

/** GetRecords' own per-call limit; a larger batch size is served one page at a time. */
const GET_RECORDS_MAX = 1000;

/** What one shard reader needs from its poller. */
export interface ShardReaderOptions {
  streams: DynamoDBStreamsClient;
  streamArn: string;
  shardId: string;
  batchSize: number;
  pollIntervalMs: number;
  signal: AbortSignal;
  /** Settles one page of records (retries included); the reader reads on only once it resolves. */
  deliver: (records: SdkRecord[]) => Promise<void>;
  /** Called once the shard is closed and read to its end, so that the poller looks for its children. */
  onDone: () => void;
  log: (message: string) => void;
}

/** Reads one shard from its trim horizon to its end, starting no page before the previous one settled. */
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
  private iterator: string | undefined;
  /** The sequence number of the last record delivered; a lost iterator resumes right after it. */
  private checkpoint: string | undefined;

  constructor(private readonly o: ShardReaderOptions) {
    this.finished = this.run();
  }

  private async run(): Promise<void> {
    while (!this.o.signal.aborted && !this.done) await this.step();
    if (this.done) this.o.onDone();
  }

  private async step(): Promise<void> {
    const started = performance.now();
    try {
      this.iterator ??= await this.position();
      const page = await this.o.streams.send(
        new GetRecordsCommand({
          ShardIterator: this.iterator,
          Limit: Math.min(this.o.batchSize, GET_RECORDS_MAX),
        }),
      );
      this.error = undefined;
      await this.settle(page, started);
    } catch (err) {
      this.fail(err);
      await sleep(Math.max(this.o.pollIntervalMs, 250), this.o.signal);
    }
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
      this.emptyReadStartedAt = started;
      await sleep(this.o.pollIntervalMs, this.o.signal);
    }
  }

  /** Starts at the trim horizon, or, after a lost iterator, right after the last delivered record. */
  private async position(): Promise<string> {
    const { streamArn, shardId } = this.o;
    const where = this.checkpoint
      ? { ShardIteratorType: "AFTER_SEQUENCE_NUMBER" as const, SequenceNumber: this.checkpoint }
      : { ShardIteratorType: "TRIM_HORIZON" as const };
    const out = await this.o.streams.send(
      new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ...where }),
    );
    if (!out.ShardIterator) throw new Error(`GetShardIterator gave no iterator for ${shardId}`);
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
