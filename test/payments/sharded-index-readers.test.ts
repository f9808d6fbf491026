import { randomUUID } from "node:crypto";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { PutCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import {
  countLedgerIndex,
  DynamoLedger,
  DynamoOutboxStore,
  documentClient,
  indexShardOf,
  outboxIndexPk,
  outboxIndexPks,
  type PaymentRow,
  padTime,
  paymentIdOf,
  paymentKey,
  relayDeps,
  SqsEventPublisher,
  sweepIndexPk,
  sweepIndexPks,
  sweepOutbox,
} from "@eo/core";
import { dynamoSide } from "@eo/core/failover";
import { afterEach, describe, expect, it, vi } from "vitest";
import { outboxAgain } from "../../packages/core/src/ledger/journal-and-outbox";
import { tableDefinitions } from "../../packages/local/src/stack/create-resources";
import { useLocalStack } from "../support/local-stack";

// The readers of the ledger's sparse index against DynamoDB Local, each test on a ledger table of its own (same
// definition as the stack's), so that what a pass lists is exactly what the test wrote.
const stack = useLocalStack();
const db = () => documentClient();

afterEach(() => {
  vi.restoreAllMocks();
});

async function privateLedger(): Promise<string> {
  const r = stack().emulators.regions.primary;
  const name = `ledger-shards-${randomUUID().slice(0, 8)}`;
  const def = tableDefinitions({ ...r, ledgerTable: name }).find((d) => d.input.TableName === name);
  if (!def) throw new Error("no ledger definition");
  const { StreamSpecification: _noStream, ...input } = def.input;
  const raw = new DynamoDBClient({});
  await raw.send(new CreateTableCommand(input));
  raw.destroy();
  return name;
}

/** `n` payment ids whose index entries land in `shard`, or in any shard when it is undefined. */
function idsIn(shard: number | undefined, n: number, tag = randomUUID()): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    if (i > 10_000) throw new Error(`no ${n} payment ids in shard ${shard}`);
    const id = paymentIdOf(`u-${tag}`, `k${i}`);
    if (shard === undefined || indexShardOf(id) === shard) out.push(id);
  }
  return out;
}

const rowOf = (paymentId: string, at: number): PaymentRow => ({
  payment_id: paymentId,
  caller: "u-shards",
  client_key: paymentId,
  fingerprint: "f",
  order_id: "42",
  amount: 3000,
  currency: "USD",
  payment_method: "pm_1",
  merchant_id: "m-shards",
  state: "PENDING",
  created_at: at,
  updated_at: at,
});

/** Every gsi1pk the table's items carry, with how many carry it. */
async function indexKeys(table: string): Promise<Map<string, number>> {
  const out = await db().send(new ScanCommand({ TableName: table, IndexName: "gsi1" }));
  const keys = new Map<string, number>();
  for (const item of out.Items ?? []) keys.set(String(item.gsi1pk), (keys.get(String(item.gsi1pk)) ?? 0) + 1);
  return keys;
}

// An UNKNOWN row an earlier version wrote: listed under the state's single key.
async function putLegacyUnknown(table: string, paymentId: string, at: number) {
  const item = { ...paymentKey(paymentId), ...rowOf(paymentId, at), state: "UNKNOWN" };
  await db().send(
    new PutCommand({ TableName: table, Item: { ...item, gsi1pk: "SWEEP#UNKNOWN", gsi1sk: padTime(at) } }),
  );
}

describe("the writers: a payment's index entries under its shard, the payments spread over the shards", () => {
  it("guard, move, resolver's touch and settle each list a payment under its own shard; 40 payments use every shard", async () => {
    // prepare
    const table = await privateLedger();
    const ledger = new DynamoLedger(db(), table, "primary");
    const ids = idsIn(undefined, 40);
    const t0 = 1_000_000;
    // act
    for (const id of ids) await ledger.insertPending(rowOf(id, t0));
    const pending = await indexKeys(table);
    for (const id of ids) await ledger.move({ paymentId: id, to: "UNKNOWN", now: t0 + 1 });
    for (const id of ids) await ledger.touchSweep(id, "UNKNOWN", t0 + 2, t0 + 5);
    const unknown = await indexKeys(table);
    for (const id of ids)
      await ledger.move({ paymentId: id, to: "SUCCEEDED", set: { psp_charge: `ch_${id}` }, now: t0 + 9 });
    const settled = await indexKeys(table);
    // assess
    expect(pending.size).toBeGreaterThan(1);
    expect([...pending.keys()].sort()).toEqual(
      [...new Set(ids.map((id) => sweepIndexPk("PENDING", id)))].sort(),
    );
    expect([...unknown.keys()].sort()).toEqual(
      [...new Set(ids.map((id) => sweepIndexPk("UNKNOWN", id)))].sort(),
    );
    expect(settled.size).toBeGreaterThan(1);
    expect([...settled.keys()].sort()).toEqual([...new Set(ids.map(outboxIndexPk))].sort());
    expect([...settled.values()].reduce((a, b) => a + b, 0)).toBe(ids.length);
  });
});

describe("the resolver's read (listByState): every row of every shard and of the earlier single key", () => {
  it("honours the limit over all shards, oldest first, paging inside a crowded shard; repeated passes reach every row", async () => {
    // prepare: 20 rows in one shard (the oldest), one in each other shard, 3 under the earlier version's key
    const table = await privateLedger();
    const ledger = new DynamoLedger(db(), table, "primary");
    const crowded = idsIn(3, 20);
    const spread = [0, 1, 2, 4, 5, 6, 7].map((s) => idsIn(s, 1)[0] as string);
    const legacy = idsIn(undefined, 3);
    let t = 2_000_000;
    for (const id of [...crowded, ...spread]) {
      await ledger.insertPending(rowOf(id, t++));
      await ledger.move({ paymentId: id, to: "UNKNOWN", now: t++ });
    }
    for (const id of legacy) await putLegacyUnknown(table, id, t++);
    const all = [...crowded, ...spread, ...legacy];
    // act: one pass of 10, then passes that send what they examined to the back, as the resolver does
    const first = await ledger.listByState("UNKNOWN", t, 10);
    const whole = await ledger.listByState("UNKNOWN", t, 100);
    const seen = new Set<string>();
    const sizes: number[] = [];
    for (let pass = 0; pass < 3; pass++) {
      const rows = await ledger.listByState("UNKNOWN", t + 1_000, 10);
      sizes.push(rows.length);
      for (const r of rows) {
        seen.add(r.payment_id);
        await ledger.touchSweep(r.payment_id, "UNKNOWN", t + 1 + pass, t + 1 + pass);
      }
    }
    // assess
    expect(first.map((r) => r.payment_id)).toEqual(crowded.slice(0, 10));
    expect(whole.map((r) => r.payment_id).sort()).toEqual([...all].sort());
    expect(sizes).toEqual([10, 10, 10]);
    expect([...seen].sort()).toEqual([...all].sort());
    // The resolver's touch moved the earlier version's rows to their shards.
    expect(await countLedgerIndex(db(), table, ["SWEEP#UNKNOWN"])).toBe(0);
    expect(await countLedgerIndex(db(), table, sweepIndexPks("UNKNOWN"))).toBe(all.length);
  });
});

describe("the outbox sweep's read (listOlderThan) and the failover's counts, over every shard", () => {
  it("a limit of 7 per pass sends every item of every shard and of the earlier key, oldest first, once each", async () => {
    // prepare: 12 events in one shard (the oldest), 6 spread, 2 under the earlier single key `OUTBOX`
    const table = await privateLedger();
    const ids = [...idsIn(5, 12), ...[0, 1, 2, 3, 4, 6].map((s) => idsIn(s, 1)[0] as string)];
    let t = 3_000_000;
    for (const id of ids) await db().send(new PutCommand(outboxAgain(table, rowOf(id, t), t++, "SUCCEEDED")));
    const legacy = idsIn(undefined, 2);
    for (const id of legacy) {
      const put = outboxAgain(table, rowOf(id, t), t, "SUCCEEDED");
      await db().send(
        new PutCommand({ ...put, Item: { ...put.Item, gsi1pk: "OUTBOX", gsi1sk: padTime(t++) } }),
      );
    }
    const events = [...ids, ...legacy].map((id) => `${id}:SUCCEEDED`);
    const side = dynamoSide(
      "primary",
      "local",
      db(),
      { ledger: table, claims: table, control: table },
      noOps,
    );
    const backlogBefore = await side.outboxBacklog();
    const publish = vi.spyOn(SqsEventPublisher.prototype, "publish");
    const deps = { ...relayDeps(), outbox: new DynamoOutboxStore(db(), table) };
    // act
    const reports = [];
    for (let pass = 0; pass < 4; pass++)
      reports.push(await sweepOutbox(deps, { olderThanMs: -(t + 1) + deps.clock.now(), limit: 7 }));
    // assess
    const sent = publish.mock.calls.map((c) => c[0].event_id);
    expect(backlogBefore).toBe(events.length);
    expect(reports.map((r) => r.examined)).toEqual([7, 7, 6, 0]);
    expect(sent.slice(0, 7)).toEqual(events.slice(0, 7));
    expect([...sent].sort()).toEqual([...events].sort());
    expect(await side.outboxBacklog()).toBe(0);
    expect(await countLedgerIndex(db(), table, outboxIndexPks())).toBe(0);
  });
});

describe("a sweep that outlives a fence", () => {
  afterEach(() => {
    delete process.env.EO_TEST_UNSAFE_SWEEPS_ONE_CHECK;
  });

  /** Six left-behind events; the authority names the other Region from the moment the third is re-sent. */
  async function sweepFencedMidPass() {
    const table = await privateLedger();
    let t = 4_000_000;
    for (const id of idsIn(undefined, 6))
      await db().send(new PutCommand(outboxAgain(table, rowOf(id, t), t++, "SUCCEEDED")));
    const publish = vi.spyOn(SqsEventPublisher.prototype, "publish");
    const deps = { ...relayDeps(), outbox: new DynamoOutboxStore(db(), table) };
    const stillActive = async () => publish.mock.calls.length < 3;
    const report = await sweepOutbox(deps, {
      olderThanMs: -(t + 1) + deps.clock.now(),
      limit: 10,
      stillActive,
    });
    return { report, sent: publish.mock.calls.length };
  }

  it("re-checks the authority before each item and leaves the rest to the new Region", async () => {
    // act
    const { report, sent } = await sweepFencedMidPass();
    // assess
    expect(sent).toBe(3);
    expect(report).toMatchObject({ examined: 6, resent: 3, stopped: "passive" });
  });

  it("on its one check at the start (guard off), it re-sends all six after the fence: a fenced Region acting", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_SWEEPS_ONE_CHECK = "1";
    // act
    const { report, sent } = await sweepFencedMidPass();
    // assess
    expect(sent).toBe(6);
    expect(report.stopped).toBeUndefined();
  });
});

const noOps = {
  health: async () => ({ ok: true, detail: "" }),
  runJob: async () => ({}),
};
