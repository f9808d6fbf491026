import { randomUUID } from "node:crypto";
import { PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import {
  clock,
  countLedgerIndex,
  documentClient,
  indexShardOf,
  loadConfig,
  outboxIndexPk,
  outboxIndexPks,
  type PaymentRow,
  padTime,
  paymentIdOf,
  paymentKey,
} from "@eo/core";
import { describe, expect, it } from "vitest";
import { outboxAgain } from "../../packages/core/src/ledger/journal-and-outbox";
import { ChaosApi } from "../../scripts/lib/chaos/chaos-api";
import { readDepths } from "../../scripts/lib/chaos/observe";
import { merchantOf, settled } from "../async/support/async-stack";
import { ApiClient, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";
import { eventually } from "../support/tables";

// The jobs that read the sharded index (Sweeps, the resolver), the relay, and the `/_local/backlog` and chaos
// checker's counts, on the stack's own ledger, with entries in several shards and under the earlier single keys.
const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);
const ledger = () => loadConfig().ledgerTable;

/** `n` idempotency keys of `caller` whose payments land in `n` different index shards. */
function keysInDistinctShards(caller: string, n: number): string[] {
  const byShard = new Map<number, string>();
  while (byShard.size < n) {
    const key = `k-${randomUUID()}`;
    const shard = indexShardOf(paymentIdOf(caller, key));
    if (!byShard.has(shard)) byShard.set(shard, key);
  }
  return [...byShard.values()];
}

const eventRow = (paymentId: string, merchant: string, at: number): PaymentRow => ({
  payment_id: paymentId,
  caller: "u-sweep",
  client_key: paymentId,
  fingerprint: "f",
  order_id: "42",
  amount: 100,
  currency: "USD",
  payment_method: "pm_1",
  merchant_id: merchant,
  state: "SUCCEEDED",
  created_at: at,
  updated_at: at,
});

async function run(job: "sweeps" | "resolver") {
  return (await api().local("POST", `/run/${job}`)).body.result as Record<string, unknown>;
}

describe("the Sweeps function over the sharded outbox", () => {
  it("re-sends every event the relay never saw, from every shard and from the earlier single key, once each", async () => {
    // prepare: the other Region's leftovers (this Region's relay leaves them, as after a failover), 6 in distinct
    // shards and 2 under the key `OUTBOX` an earlier version wrote
    const merchant = `m-sweep-${randomUUID().slice(0, 8)}`;
    const now = clock.now();
    const ids = keysInDistinctShards("u-sweep", 8).map((k) => paymentIdOf("u-sweep", k));
    for (const [i, id] of ids.entries()) {
      const put = outboxAgain(ledger(), eventRow(id, merchant, now), now, "SUCCEEDED", "standby");
      const legacy = i >= 6 ? { gsi1pk: "OUTBOX", gsi1sk: padTime(now) } : {};
      await documentClient().send(new PutCommand({ ...put, Item: { ...put.Item, ...legacy } }));
    }
    const checkerBefore = await readDepths(new ChaosApi(stack().apiUrl));
    // act
    await api().local("POST", "/clock", { advance_s: 180 });
    const swept = (await run("sweeps")).outbox;
    await eventually(async () => ((await merchantOf(stack(), merchant)).credits === 8 ? true : undefined));
    // assess
    expect(new Set(ids.slice(0, 6).map(outboxIndexPk)).size).toBe(6);
    expect(checkerBefore.outboxLeft).toBe(8);
    expect(swept).toMatchObject({ examined: 8, resent: 8, failed: 0 });
    expect(await merchantOf(stack(), merchant)).toMatchObject({ credits: 8, balance: 800 });
    expect((await readDepths(new ChaosApi(stack().apiUrl))).outboxLeft).toBe(0);
  });
});

describe("the relay over the sharded outbox", () => {
  it("relays the events of payments in several shards: each credited once, none left in any shard", async () => {
    // prepare
    const merchant = `m-relay-${randomUUID().slice(0, 8)}`;
    const token = await api().token("u-relay");
    const keys = keysInDistinctShards("u-relay", 5);
    // act
    const paid = [];
    for (const key of keys) paid.push(await api().pay(token, key, order42({ merchant_id: merchant })));
    for (const p of paid) await settled(stack(), `${p.body.payment_id}:SUCCEEDED`);
    // assess
    expect(paid.map((p) => p.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(paid.map((p) => outboxIndexPk(String(p.body.payment_id)))).size).toBe(5);
    expect(await merchantOf(stack(), merchant)).toMatchObject({ credits: 5 });
    expect(await countLedgerIndex(documentClient(), ledger(), outboxIndexPks())).toBe(0);
  });
});

describe("the resolver and /_local/backlog over the sharded sweep index", () => {
  it("settle and count every UNKNOWN payment, in several shards and under the earlier single key", async () => {
    // prepare: 5 replies lost in 5 shards, no webhooks; one row rewritten as an earlier version listed it
    stack().psp.setWebhookUrl(undefined);
    const token = await api().token("u-resolve");
    const keys = keysInDistinctShards("u-resolve", 5);
    await api().local("POST", "/faults", { psp_lose_reply: 5 });
    const ids: string[] = [];
    for (const key of keys) ids.push(String((await api().pay(token, key, order42())).body.payment_id));
    const old = ids[4] as string;
    await documentClient().send(
      new UpdateCommand({
        TableName: ledger(),
        Key: paymentKey(old),
        UpdateExpression: "SET gsi1pk = :legacy",
        ExpressionAttributeValues: { ":legacy": "SWEEP#UNKNOWN" },
      }),
    );
    const backlog = (await api().local("GET", "/backlog")).body;
    // act: passes until nothing is left (the resolver's own rate cap may stop a pass early)
    const settledIds = new Set<string>();
    for (let pass = 0; pass < 5 && settledIds.size < ids.length; pass++) {
      const report = (await run("resolver")) as { settled: Array<{ payment_id: string }> };
      for (const s of report.settled) settledIds.add(s.payment_id);
    }
    // assess
    expect(backlog).toMatchObject({ UNKNOWN: 5, total: 5 });
    expect([...settledIds].sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const row = (await tablesOf(stack()).payment(id)) as Record<string, unknown> | undefined;
      expect({ state: row?.state, gsi1pk: row?.gsi1pk }).toEqual({ state: "SUCCEEDED", gsi1pk: undefined });
    }
    expect((await api().local("GET", "/backlog")).body).toMatchObject({ total: 0 });
  });
});
