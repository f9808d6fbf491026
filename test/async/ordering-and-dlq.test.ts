import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { PurgeQueueCommand, SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import { DeleteCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import {
  balanceShardCount,
  creditKey,
  documentClient,
  eventIdOf,
  loadConfig,
  merchantCredits,
  paymentIdOf,
  shardOf,
} from "@eo/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalStack } from "../../packages/local/src/stack/start-stack";
import {
  assertOneShown,
  type Buyer,
  buyer,
  emailsTo,
  eventually,
  merchantId,
  merchantOf,
  pay,
  queueDepth,
  screenOf,
  settled,
  sqsOf,
  startAsyncStack,
  watchMetrics,
} from "./support/async-stack";

let stack: LocalStack;

beforeAll(async () => {
  stack = await startAsyncStack();
});
afterAll(async () => {
  await stack?.stop();
});

/**
 * A bad manual edit: a credit record under the key that the merchant's next event will use, with another amount.
 * The worker refuses to guess which is right, so that event fails until the stray record is removed.
 */
async function strayCredit(b: Buyer, merchant: string, key: string): Promise<void> {
  const eventId = eventIdOf(paymentIdOf(b.caller, key), "SUCCEEDED");
  await documentClient().send(
    new PutCommand({
      TableName: loadConfig().consumerTable,
      Item: {
        ...creditKey(merchant, shardOf(eventId, balanceShardCount()), eventId),
        event_id: eventId,
        amount: 1,
        currency: "USD",
      },
    }),
  );
}

/** The fix: the stray record is removed. */
async function removeStray(b: Buyer, merchant: string, key: string): Promise<void> {
  const eventId = eventIdOf(paymentIdOf(b.caller, key), "SUCCEEDED");
  await documentClient().send(
    new DeleteCommand({
      TableName: loadConfig().consumerTable,
      Key: creditKey(merchant, shardOf(eventId, balanceShardCount()), eventId),
    }),
  );
}

describe("Ordering: one merchant's events are applied in order; another merchant's are not held back", () => {
  it("holds m-a's second event behind its failing first one while m-b's event is applied", async () => {
    // prepare: m-a's first credit fails until the fix
    const b = await buyer(stack, "order");
    const [a, other] = [merchantId("m-a"), merchantId("m-b")];
    const firstKey = randomUUID();
    await strayCredit(b, a, firstKey);
    // act
    const a1 = await pay(stack, b, { merchant: a, amount: 1000, key: firstKey });
    const a2 = await pay(stack, b, { merchant: a, amount: 2000 });
    await pay(stack, b, { merchant: other, amount: 500 });
    // assess: m-b goes through while m-a's group waits
    await eventually(
      "m-b's credit",
      () => merchantOf(stack, other),
      (x) => x.credits === 1,
    );
    // only the stray record is there: m-a's real credits wait behind it
    expect(await merchantOf(stack, a)).toMatchObject({ credits: 1, balance: 1 });
    await removeStray(b, a, firstKey);
    await eventually(
      "m-a's two credits",
      () => merchantOf(stack, a),
      (x) => x.credits === 2,
    );
    const credits = await merchantCredits(a);
    expect(credits.map((c) => c.event_id)).toEqual([a1.eventId, a2.eventId]);
    expect(credits[0]?.applied_at).toBeLessThan(credits[1]?.applied_at ?? 0);
    expect(await merchantOf(stack, a)).toMatchObject({ balance: 3000 });
  });
});

describe("DLQ: a poison message goes to the DLQ after the redrive limit and, redriven after the fix, applies once", () => {
  it("is left in the DLQ while unsafe to move, then moves with its original ids and credits once", async () => {
    // prepare: every delivery of this merchant's event fails
    const metrics = await watchMetrics();
    const b = await buyer(stack, "poison", { phone: "apns", email: true });
    const m = merchantId("m-poison");
    const key = randomUUID();
    await strayCredit(b, m, key);
    const { eventId, body } = await pay(stack, b, { merchant: m, key });
    const dlq = stack.emulators.regions.primary.queues.eventsDlq;
    // act 1: five failed receives, then SQS moves it
    await eventually(
      "the event to reach the DLQ",
      () => queueDepth(stack, dlq),
      (d) => d.waiting === 1,
      40_000,
    );
    expect(metrics.count("DlqArrivals")).toBe(1);
    expect(await merchantOf(stack, m)).toMatchObject({ credits: 1, balance: 1 }); // the stray record alone
    await removeStray(b, m, key);
    // act 2: a redrive inside the queue's 5-minute dedup window would be dropped by SQS, so the script refuses
    const early = await runRedrive([]);
    expect(early.code).toBe(1);
    expect(early.stdout).toMatch(/deduplication window/);
    expect((await queueDepth(stack, dlq)).waiting).toBe(1);
    // act 3: once the queue has forgotten the id, the redrive moves it with the original dedup and group ids
    await forgetDedupIds(stack);
    const moved = await runRedrive(["--dedup-window-s", "0"]);
    expect(moved.code).toBe(0);
    expect(moved.stdout).toContain(`event=${eventId} group=${m} dedup=${eventId}`);
    // assess
    await settled(stack, eventId, ["push", "email"]);
    expect(await merchantOf(stack, m)).toMatchObject({ credits: 1, balance: 3000 });
    assertOneShown(await screenOf(stack, b), body.payment_id, 1);
    expect(await emailsTo(stack, b.email as string)).toHaveLength(1);
    const again = await runRedrive(["--dedup-window-s", "0"]);
    expect(again).toMatchObject({ code: 0 });
    expect(again.stdout).toMatch(/the DLQ is empty/);
    metrics.stop();
  });
});

/** Runs scripts/redrive-dlq.ts against the stack's queues, as an operator would. */
function runRedrive(extra: string[]): Promise<{ code: number; stdout: string }> {
  const { endpoints, regions } = stack.emulators;
  const args = [
    "--import",
    "tsx",
    "scripts/redrive-dlq.ts",
    "--endpoint",
    endpoints.sqs,
    "--region",
    regions.primary.region,
  ];
  args.push(
    "--dlq-url",
    regions.primary.queues.eventsDlq,
    "--queue-url",
    regions.primary.queues.events,
    ...extra,
  );
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: process.cwd(), env: process.env }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout: `${stdout}${stderr}` });
    });
  });
}

/**
 * Stands in for the five minutes after which SQS forgets a dedup id: fauxqs remembers the last 10,000 ids per
 * queue, so 10,000 other ids push this one out; the filler messages are then purged.
 */
async function forgetDedupIds(s: LocalStack): Promise<void> {
  const sqs = sqsOf(s);
  const queueUrl = s.emulators.regions.primary.queues.events;
  let next = 0;
  const sendSome = async () => {
    for (let batch = next++; batch < 1_005; batch = next++) {
      const entries = Array.from({ length: 10 }, (_, k) => ({
        Id: `f${k}`,
        MessageBody: "filler",
        MessageDeduplicationId: `filler-${batch}-${k}`,
        MessageGroupId: "filler",
      }));
      await sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
    }
  };
  await Promise.all(Array.from({ length: 16 }, sendSome));
  await sqs.send(new PurgeQueueCommand({ QueueUrl: queueUrl }));
  sqs.destroy();
}
