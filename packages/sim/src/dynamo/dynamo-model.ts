import type { SimClock } from "../world/clock";
import { noTable } from "./errors";
import { encodeKey, keyOf, type Table } from "./table";
import { cloneItem, type Item, valuesEqual } from "./values";

/** One change to one item, in the order the model applied it: the feed a streams or replication model reads. */
export interface ChangeRecord {
  table: string;
  eventName: "INSERT" | "MODIFY" | "REMOVE";
  keys: Item;
  oldImage?: Item;
  newImage?: Item;
  /** Strictly increasing across the whole model. */
  sequence: bigint;
  atMs: number;
  /** Set on the REMOVE a TTL sweep made (DynamoDB Streams marks those with the service's userIdentity). */
  byTtl?: true;
}

/** A planned write to one item: no `after` deletes it. */
export interface Write {
  table: Table;
  key: string;
  before?: Item;
  after?: Item;
  byTtl?: true;
}

/** How a DynamoModel is built; `unsafe` switches exist only so tests can prove they catch a broken model. */
export interface DynamoModelOptions {
  clock: SimClock;
  /** The Region its ARNs name (default us-east-1). */
  region?: string;
  unsafe?: { conditionsIgnored?: boolean };
}

/**
 * An in-memory DynamoDB: tables, items, expressions, transactions and queries, answering the JSON protocol's
 * operations (see dynamo-model-handler.ts). Writes apply at once and in call order, which is what a single Region's
 * strongly consistent reads see.
 */
export class DynamoModel {
  readonly clock: SimClock;
  readonly region: string;
  readonly conditionsIgnored: boolean;
  readonly tables = new Map<string, Table>();
  /** ClientRequestToken → the transaction's fingerprint and when it ran (DynamoDB remembers tokens for 10 minutes). */
  readonly transactionTokens = new Map<string, { fingerprint: string; atMs: number }>();
  private readonly listeners = new Set<(r: ChangeRecord) => void>();
  private sequence = 0n;

  constructor(options: DynamoModelOptions) {
    this.clock = options.clock;
    this.region = options.region ?? "us-east-1";
    this.conditionsIgnored = options.unsafe?.conditionsIgnored ?? false;
  }

  /** Subscribes to every item change; answers the function that unsubscribes. */
  onChange(listener: (r: ChangeRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The named table, or DynamoDB's ResourceNotFoundException. */
  table(name: unknown): Table {
    const t = this.tables.get(String(name));
    if (!t) throw noTable();
    return t;
  }

  /** Applies writes in order and tells the listeners, one record per item that changed. */
  commit(writes: Write[]): void {
    for (const w of writes) {
      if (w.after) w.table.items.set(w.key, w.after);
      else w.table.items.delete(w.key);
    }
    for (const w of writes) this.emit(w);
  }

  private emit(w: Write): void {
    if (!w.before && !w.after) return;
    const eventName = !w.before ? "INSERT" : !w.after ? "REMOVE" : "MODIFY";
    if (eventName === "MODIFY" && sameItem(w.before as Item, w.after as Item)) return;
    this.sequence += 1n;
    const record: ChangeRecord = {
      table: w.table.name,
      eventName,
      keys: keyOf(w.table, (w.after ?? w.before) as Item),
      ...(w.before ? { oldImage: cloneItem(w.before) } : {}),
      ...(w.after ? { newImage: cloneItem(w.after) } : {}),
      sequence: this.sequence,
      atMs: this.clock.now(),
      ...(w.byTtl ? { byTtl: true as const } : {}),
    };
    for (const l of this.listeners) l(record);
  }

  /**
   * Deletes the items whose TTL attribute (epoch seconds) is in the past by the clock, emitting REMOVE for each.
   * Until this runs, expired items are still read and written like any other, as on DynamoDB, whose background
   * sweep deletes them up to days later; the world decides when to sweep. Like TTL, a timestamp more than five
   * years in the past is taken for a mistake and left alone.
   */
  sweepExpired(): number {
    const nowS = this.clock.now() / 1000;
    const oldest = nowS - 5 * 365 * 24 * 3600;
    const writes: Write[] = [];
    for (const t of this.tables.values()) {
      if (!t.ttlAttribute) continue;
      for (const [key, item] of t.items) {
        const v = item[t.ttlAttribute];
        const at = v && "N" in v ? Number(v.N) : Number.NaN;
        if (at < nowS && at >= oldest) writes.push({ table: t, key, before: item, byTtl: true });
      }
    }
    this.commit(writes);
    return writes.length;
  }

  /** The encoded primary key of an item in a table. */
  keyOf(table: Table, item: Item): string {
    return encodeKey(table, item);
  }
}

function sameItem(a: Item, b: Item): boolean {
  return valuesEqual({ M: a }, { M: b });
}
