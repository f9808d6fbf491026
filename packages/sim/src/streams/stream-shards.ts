import type { SimClock } from "../world/clock";

/** One change as a stream record carries it, in the wire's AttributeValue JSON. */
export interface StreamChange {
  eventName: "INSERT" | "MODIFY" | "REMOVE";
  keys: Record<string, unknown>;
  oldImage?: Record<string, unknown>;
  newImage?: Record<string, unknown>;
  /** The change came from TTL's sweep: the record names DynamoDB's service principal, as AWS's does. */
  byTtl?: boolean;
}

/** A record held by a shard, with the time it was written (for retention and ApproximateCreationDateTime). */
export interface HeldRecord {
  sequence: bigint;
  atMs: number;
  change: StreamChange;
  sizeBytes: number;
}

/** One shard of a table's stream: records in write order, closed when its successor opens. */
export interface Shard {
  shardId: string;
  parentShardId?: string;
  openedAtMs: number;
  startingSequence: bigint;
  endingSequence?: bigint;
  records: HeldRecord[];
}

/** How a stream's shards roll and age. */
export interface ShardPolicy {
  clock: SimClock;
  /** DynamoDB closes a shard and opens its child about every four hours; a reader must follow the lineage. */
  rolloverMs: number;
  /** Records older than this are trimmed away (24 h on AWS). */
  retentionMs: number;
}

/**
 * The shards of one table's stream. One open shard at a time holds every item's changes, so each item's changes
 * stay in write order, as DynamoDB Streams promises; a shard rolls over to a child after `rolloverMs`.
 */
export class StreamShards {
  readonly shards: Shard[] = [];
  private count = 0;

  /** A stream has its first shard, open and empty, from the moment it is enabled, as on AWS. */
  constructor(
    private readonly label: string,
    private readonly policy: ShardPolicy,
    nextSequence: bigint,
  ) {
    this.openShard(policy.clock.now(), nextSequence);
  }

  /** Appends one change to the open shard, rolling it over first when it is due. */
  append(change: StreamChange, sequence: bigint): void {
    const now = this.policy.clock.now();
    const open = this.openShard(now, sequence);
    const sizeBytes = JSON.stringify(change.keys).length + JSON.stringify(change.newImage ?? {}).length;
    open.records.push({ sequence, atMs: now, change, sizeBytes });
  }

  /** The shards a DescribeStream shows: those that still hold a record within retention, or are open. */
  visible(): Shard[] {
    this.age();
    return this.shards;
  }

  /** Finds a shard by id; undefined once it was trimmed away. */
  find(shardId: string): Shard | undefined {
    this.age();
    return this.shards.find((s) => s.shardId === shardId);
  }

  /** Shards roll over with time, writes or none, as DynamoDB's do; a reader parked on an idle shard must move on. */
  private age(): void {
    const now = this.policy.clock.now();
    const last = this.shards.at(-1);
    if (last && last.endingSequence === undefined && now - last.openedAtMs >= this.policy.rolloverMs)
      this.openShard(now, (last.records.at(-1)?.sequence ?? last.startingSequence - 1n) + 1n);
    this.trim();
  }

  /** The oldest sequence number still readable in a shard (TRIM_HORIZON). */
  horizon(shard: Shard): bigint {
    return shard.records[0]?.sequence ?? shard.startingSequence;
  }

  private openShard(now: number, sequence: bigint): Shard {
    const last = this.shards.at(-1);
    if (last && last.endingSequence === undefined && now - last.openedAtMs < this.policy.rolloverMs)
      return last;
    if (last && last.endingSequence === undefined)
      last.endingSequence = last.records.at(-1)?.sequence ?? last.startingSequence - 1n;
    const shard: Shard = {
      shardId: `shardId-${String(now).padStart(20, "0")}-${this.label}${String(this.count++).padStart(4, "0")}`,
      parentShardId: last?.shardId,
      openedAtMs: now,
      startingSequence: sequence,
      records: [],
    };
    this.shards.push(shard);
    return shard;
  }

  private trim(): void {
    const oldest = this.policy.clock.now() - this.policy.retentionMs;
    for (const shard of this.shards) {
      const keep = shard.records.findIndex((r) => r.atMs >= oldest);
      if (keep === -1) shard.records.length = 0;
      else if (keep > 0) shard.records.splice(0, keep);
    }
    // A closed shard with nothing left and older than retention leaves the stream, as on AWS.
    for (let i = this.shards.length - 1; i >= 0; i--) {
      const s = this.shards[i];
      if (s && s.endingSequence !== undefined && s.records.length === 0 && s.openedAtMs < oldest)
        this.shards.splice(i, 1);
    }
  }
}
