import type { DynamoDBRecord } from "aws-lambda";
import { errorText, type Invocation } from "./invoke-handler";
import { byWindow, type InvokeWindowed, ShardWindows } from "./tumbling-windows";

/** What a windowed mapping needs from its stream poller. */
export interface WindowedShardsOptions {
  windowS: number;
  eventSourceARN: string;
  invoke: InvokeWindowed;
  /** Delivers one batch in order with the mapping's retry policy (stream-delivery.ts). */
  deliverBatch: (
    records: DynamoDBRecord[],
    invoke: (b: DynamoDBRecord[]) => Promise<Invocation<unknown>>,
  ) => Promise<void>;
  signal: AbortSignal;
  log: (line: string) => void;
}

/**
 * The shards of a mapping with a tumbling window: each shard's windows, and a chain per shard that keeps its
 * deliveries and its window closes one at a time, as Lambda processes a shard.
 */
export class WindowedShards {
  private readonly shards = new Map<string, { windows: ShardWindows; chain: Promise<unknown> }>();

  constructor(private readonly o: WindowedShardsOptions) {}

  /** Delivers a shard's page, window by window, closing a window before anything of the next one. */
  deliver(records: DynamoDBRecord[], shardId: string): Promise<void> {
    const { windows } = this.entry(shardId);
    return this.onShard(shardId, async () => {
      for (const [start, run] of byWindow(records, windows)) {
        if (!(await windows.enter(start))) return;
        await this.o.deliverBatch(run, windows.invokeBatch);
      }
    });
  }

  /** Closes every shard's window whose end has passed, as Lambda's final invocation does when a window ends. */
  closeEnded(): void {
    for (const [shardId, { windows }] of this.shards)
      void this.onShard(shardId, () => windows.closeIfEnded()).catch((err) =>
        this.o.log(`closing a window failed: ${errorText(err)}`),
      );
  }

  private onShard<T>(shardId: string, run: () => Promise<T>): Promise<T> {
    const entry = this.entry(shardId);
    const next = entry.chain.then(run, run);
    entry.chain = next.catch(() => undefined);
    return next;
  }

  private entry(shardId: string) {
    let entry = this.shards.get(shardId);
    if (!entry) {
      const windows = new ShardWindows({
        shardId,
        eventSourceARN: this.o.eventSourceARN,
        windowMs: this.o.windowS * 1000,
        invoke: this.o.invoke,
        signal: this.o.signal,
        log: (line) => this.o.log(`${shardId}: ${line}`),
      });
      entry = { windows, chain: Promise.resolve() };
      this.shards.set(shardId, entry);
    }
    return entry;
  }
}
