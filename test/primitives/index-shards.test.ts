import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { paymentIdOf } from "../../packages/core/src/ids/derive-ids";
import {
  indexShardCount,
  isOutboxIndexPk,
  outboxIndexPk,
  outboxIndexPks,
  sweepIndexPk,
  sweepIndexPks,
} from "../../packages/core/src/ledger/index-shards";
import { mergeOldestFirst, type PageReader } from "../../packages/core/src/ledger/merge-oldest-first";

type Entry = { key: number; at: string };

/** One key's entries as DynamoDB pages them: oldest first, at most `limit` a page, `next` while more remain. */
function pagedKey(entries: Entry[], pageCap: number): PageReader<Entry> & { reads: number[] } {
  const sorted = [...entries].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const reads: number[] = [];
  const read = async (start: Record<string, unknown> | undefined, limit: number) => {
    const from = Number(start?.at ?? 0);
    const items = sorted.slice(from, from + Math.min(limit, pageCap));
    reads.push(items.length);
    const to = from + items.length;
    return { items, next: to < sorted.length ? { at: to } : undefined };
  };
  return Object.assign(read, { reads });
}

const time = fc.integer({ min: 0, max: 50 }).map((n) => String(n).padStart(3, "0"));
const keysOfEntries = fc.array(fc.array(time, { maxLength: 30 }), { minLength: 1, maxLength: 10 });

describe("the index keys: a payment's shard, from its id alone", () => {
  it("spreads the payments of many ids over every shard, and picks the same shard on every write of one", () => {
    // prepare
    const ids = Array.from({ length: 400 }, (_, i) => paymentIdOf(`u${i}`, `key-${i}`));
    // act
    const outbox = ids.map(outboxIndexPk);
    const unknown = ids.map((id) => sweepIndexPk("UNKNOWN", id));
    const again = ids.map(outboxIndexPk);
    // assess
    const perKey = new Map<string, number>();
    for (const k of outbox) perKey.set(k, (perKey.get(k) ?? 0) + 1);
    expect(perKey.size).toBe(indexShardCount());
    expect(Math.max(...perKey.values()) / ids.length).toBeLessThan(2 / indexShardCount());
    expect(again).toEqual(outbox);
    expect(new Set(unknown).size).toBe(indexShardCount());
    expect(outbox.every((k) => outboxIndexPks().includes(k) && isOutboxIndexPk(k))).toBe(true);
    expect(unknown.every((k) => sweepIndexPks("UNKNOWN").includes(k))).toBe(true);
  });

  it("reads the earlier version's single keys too, and tells the outbox's keys from the states'", () => {
    // assess
    expect(outboxIndexPks()).toContain("OUTBOX");
    expect(sweepIndexPks("PENDING")).toContain("SWEEP#PENDING");
    expect(outboxIndexPks()).toHaveLength(indexShardCount() + 1);
    expect(isOutboxIndexPk("SWEEP#UNKNOWN#S01")).toBe(false);
    expect(isOutboxIndexPk(undefined)).toBe(false);
  });
});

describe("the index's shard count: one setting every function of a deployment reads", () => {
  it("takes LEDGER_INDEX_SHARDS when given (the chaos stacks' 2), 8 when not, and refuses a count it cannot use", () => {
    // assess
    expect(indexShardCount({})).toBe(8);
    expect(indexShardCount({ LEDGER_INDEX_SHARDS: "2" })).toBe(2);
    expect(() => indexShardCount({ LEDGER_INDEX_SHARDS: "0" })).toThrow(
      /LEDGER_INDEX_SHARDS=0 must be an integer 1..64/,
    );
    expect(() => indexShardCount({ LEDGER_INDEX_SHARDS: "two" })).toThrow(/must be an integer/);
  });

  it("lists every shard's key and the earlier single key for the count in force", () => {
    // prepare
    const saved = process.env.LEDGER_INDEX_SHARDS;
    process.env.LEDGER_INDEX_SHARDS = "2";
    try {
      // act
      const keys = sweepIndexPks("UNKNOWN");
      // assess
      expect(keys).toEqual(["SWEEP#UNKNOWN#S00", "SWEEP#UNKNOWN#S01", "SWEEP#UNKNOWN"]);
      expect(outboxIndexPks()).toEqual(["OUTBOX#S00", "OUTBOX#S01", "OUTBOX"]);
    } finally {
      if (saved === undefined) delete process.env.LEDGER_INDEX_SHARDS;
      else process.env.LEDGER_INDEX_SHARDS = saved;
    }
  });
});

describe("mergeOldestFirst: one pass over every shard of a list", () => {
  test.prop([keysOfEntries, fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 7 })])(
    "answers exactly the `limit` oldest over all keys, in order, however the keys page",
    async (times, limit, pageCap) => {
      // prepare
      const keys = times.map((ts, key) => ts.map((at) => ({ key, at })));
      const all = keys.flat().sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.key - b.key));
      // act
      const got = await mergeOldestFirst(
        keys.map((k) => pagedKey(k, pageCap)),
        (e) => e.at,
        limit,
      );
      // assess
      expect(got.map((e) => e.at)).toEqual(all.slice(0, limit).map((e) => e.at));
      expect(got).toHaveLength(Math.min(limit, all.length));
    },
  );

  it("reads little more than the limit: about limit / keys from each key, more only where the oldest are", async () => {
    // prepare: 9 keys of 100 entries each; the oldest 20 are all in key 4
    const keys = Array.from({ length: 9 }, (_, key) =>
      Array.from({ length: 100 }, (_, i) => ({ key, at: String(key === 4 ? i : 100 + i).padStart(4, "0") })),
    );
    const readers = keys.map((k) => pagedKey(k, 1000));
    // act
    const got = await mergeOldestFirst(readers, (e) => e.at, 20);
    // assess
    expect(got.every((e) => e.key === 4)).toBe(true);
    const read = readers.reduce((n, r) => n + r.reads.reduce((a, b) => a + b, 0), 0);
    expect(read).toBeLessThanOrEqual(20 + 9 * Math.ceil(20 / 9));
  });

  it("starves no shard: passes that each take `limit` and send what they took to the back reach every entry", async () => {
    // prepare: one shard holds most entries and all the oldest; the limit is smaller than any pass could take
    const entries: Entry[] = [
      ...Array.from({ length: 30 }, (_, i) => ({ key: 0, at: String(i).padStart(5, "0") })),
      ...Array.from({ length: 5 }, (_, i) => ({ key: 1 + (i % 4), at: String(100 + i).padStart(5, "0") })),
    ];
    const seen = new Set<string>();
    let clock = 1000;
    // act: as the resolver does, each pass moves every entry it examined to the back (a later time)
    for (let pass = 0; pass < 6; pass++) {
      const keys = [0, 1, 2, 3, 4].map((k) => entries.filter((e) => e.key === k));
      const got = await mergeOldestFirst(
        keys.map((k) => pagedKey(k, 3)),
        (e) => e.at,
        7,
      );
      for (const e of got) {
        seen.add(`${e.key}/${entries.indexOf(e)}`);
        e.at = String(clock++).padStart(5, "0");
      }
    }
    // assess
    expect(seen.size).toBe(entries.length);
  });
});
