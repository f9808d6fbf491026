import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  DEFAULT_BALANCE_SHARDS,
  DynamoInbox,
  eventRecordItem,
  intentMarkKey,
  intentsOf,
  type PaymentEvent,
  readMerchantBalance,
  shardOf,
} from "@eo/core";
import { startDynamoDbLocal } from "../packages/local/src/emulators/dynamodb-local";
import { freePort } from "../packages/local/src/emulators/free-port";
import { createTables } from "../packages/local/src/stack/create-resources";
import { LOCAL_CREDENTIALS, localRegions } from "../packages/local/src/stack/regions";
import { itemBytes, writeUnits } from "./cost/billing-rules";

// `npm run bench:credits`: how many credits a second one merchant takes with its balance in one item versus spread
// over shards, through the worker's real write (the event's record: inbox entry, credit and intents) on DynamoDB Local.
const CREDITS = Number(process.env.BENCH_CREDITS ?? 800);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 16);
const SHARDS = Number(process.env.BALANCE_SHARDS ?? DEFAULT_BALANCE_SHARDS);
const ROUNDS = 3;
/** AWS: a partition takes at most 1,000 write units a second; a write of an item up to 1 KB costs 1. */
const PARTITION_WCU_PER_S = 1_000;

type Db = DynamoDBDocumentClient;

async function main(): Promise<void> {
  const port = await freePort();
  const ddbLocal = await startDynamoDbLocal(port);
  const region = localRegions().primary;
  const endpoint = `http://127.0.0.1:${port}`;
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint, region: region.region, credentials: LOCAL_CREDENTIALS }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  try {
    await createTables(endpoint, region);
    await credit(db, region.consumerTable, 1, "warm-up", 100);
    const runs = { single: [] as number[], sharded: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      runs.single.push(await credit(db, region.consumerTable, 1, `hot-single-${round}`, CREDITS));
      runs.sharded.push(await credit(db, region.consumerTable, SHARDS, `hot-sharded-${round}`, CREDITS));
    }
    report(runs, hottestShare(SHARDS, CREDITS));
  } finally {
    db.destroy();
    await ddbLocal.stop();
  }
}

/** Applies `n` credits to one merchant with WRITERS concurrent workers; answers credits per second, checked by a read. */
async function credit(db: Db, table: string, shards: number, merchant: string, n: number): Promise<number> {
  const inbox = new DynamoInbox(db, table, shards);
  let next = 0;
  const writer = async () => {
    for (let i = next++; i < n; i = next++) {
      const event = eventOf(merchant, i);
      if (
        (await inbox.applyOnce(event, intentsOf(event, event.occurred_at), event.occurred_at)) !== "applied"
      )
        throw new Error("unexpected duplicate");
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: WRITERS }, writer));
  const seconds = (performance.now() - started) / 1000;
  const read = await readMerchantBalance(db, table, merchant, shards);
  if (read.credits !== n || read.balance !== n * 3000)
    throw new Error(`${merchant}: read ${JSON.stringify(read)} after ${n} credits`);
  return n / seconds;
}

function eventOf(merchant: string, i: number): PaymentEvent {
  const id = `pay_${merchant}_${i}`;
  return {
    event_id: `${id}:SUCCEEDED`,
    type: "payment.succeeded",
    payment_id: id,
    merchant_id: merchant,
    caller: `buyer-${i % 97}`,
    email: `buyer-${i % 97}@example.com`,
    amount: 3000,
    currency: "USD",
    occurred_at: 1_800_000_000_000 + i,
  };
}

/** The share of one merchant's credits that the busiest shard takes, for the event ids the bench uses. */
function hottestShare(shards: number, n: number): number {
  const counts = new Array<number>(shards).fill(0);
  for (let i = 0; i < n; i++) {
    const s = shardOf(eventOf("hot-sharded-0", i).event_id, shards);
    counts[s] = (counts[s] ?? 0) + 1;
  }
  return Math.max(...counts) / n;
}

/**
 * Write units one credit costs the merchant's hottest partition: the event's record lives there (its inbox entry,
 * the credit and the intents on one item), put once, and each intent's end is a mark item beside it (same
 * partition) when the push and the email went out, each write billed per started KB (the email's mark carries
 * its send record).
 */
function wcuPerCreditOnShard(): number {
  const event = eventOf("a-typical-merchant-id", 123_456);
  const put = eventRecordItem(event, intentsOf(event, event.occurred_at), SHARDS, event.occurred_at);
  const mark = (channel: "push" | "email") => ({
    ...intentMarkKey(event, channel, SHARDS),
    event_id: event.event_id,
    channel,
    state: "SENT",
    finished_at: 1,
  });
  const emailMark = {
    ...mark("email"),
    email_send: {
      event_id: event.event_id,
      message_id: "0100018c-ses-message-id",
      to: event.email,
      sent_at: 1,
    },
  };
  // The balance is the sum of the records (no running total), so these three writes are all the shard takes.
  return [put, mark("push"), emailMark].reduce((n, item) => n + writeUnits(itemBytes(item)), 0);
}

function report(runs: { single: number[]; sharded: number[] }, share: number): void {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const [single, sharded] = [median(runs.single), median(runs.sharded)];
  const wcu = wcuPerCreditOnShard();
  const ceiling = { single: PARTITION_WCU_PER_S / wcu, sharded: PARTITION_WCU_PER_S / (wcu * share) };
  const fmt = (x: number) => Math.round(x).toLocaleString("en-US");
  const row = (name: string, measured: number, runsOf: number[], hot: number, max: number) =>
    `${name.padEnd(30)}${fmt(measured).padStart(10)}   ${runsOf.map(fmt).join(" / ").padEnd(22)}${`${(hot * 100).toFixed(1)}%`.padStart(8)}${String(wcu).padStart(8)}${fmt(max).padStart(14)}`;
  console.log(
    `credits to ONE merchant: ${fmt(CREDITS)} per run, ${WRITERS} concurrent writers, ${ROUNDS} rounds alternating, DynamoDB Local (in memory)`,
  );
  console.log(
    `${"".padEnd(30)}${"credits/s".padStart(10)}   ${"(each round)".padEnd(22)}${"hottest".padStart(8)}${"WCU".padStart(8)}${"AWS ceiling".padStart(14)}`,
  );
  console.log(
    `${"".padEnd(30)}${"median".padStart(10)}   ${"".padEnd(22)}${"share".padStart(8)}${"/credit".padStart(8)}${"credits/s".padStart(14)}`,
  );
  console.log(row("single balance item (1 shard)", single, runs.single, 1, ceiling.single));
  console.log(row(`sharded balance (${SHARDS} shards)`, sharded, runs.sharded, share, ceiling.sharded));
  console.log(`measured ratio, sharded / single: ${(sharded / single).toFixed(2)}x`);
  console.log(
    `  DynamoDB Local never throttles and runs transactions one at a time, so it cannot show a partition's limit:`,
  );
  console.log(
    `  these rates are the emulator's own, and the measured ratio is not the ratio AWS would give.`,
  );
  console.log(
    `AWS arithmetic: ${fmt(PARTITION_WCU_PER_S)} WCU/s per partition / (${wcu} WCU per credit on the merchant's partition x hottest share)`,
  );
  console.log(
    `  single item: ${fmt(PARTITION_WCU_PER_S)} / ${wcu} = ${fmt(ceiling.single)} credits/s; ${SHARDS} shards: ${fmt(PARTITION_WCU_PER_S)} / (${wcu} x ${share.toFixed(3)}) = ${fmt(ceiling.sharded)} credits/s`,
  );
  console.log(`  ceiling ratio, sharded / single: ${(ceiling.sharded / ceiling.single).toFixed(1)}x`);
  console.log(
    `  (one merchant is one FIFO message group, so the worker applies its credits one batch at a time: the queue, not`,
  );
  console.log(
    `  the table, sets its pace; the shards keep the balance item from becoming the limit if the group is ever split.)`,
  );
}

await main();
