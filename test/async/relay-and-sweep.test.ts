import { ReceiveMessageCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { type PaymentEvent, SqsEventPublisher } from "@eo/core";
import { afterAll, afterEach, beforeAll, describe, expect, it, type MockInstance, vi } from "vitest";
import type { LocalStack } from "../../packages/local/src/stack/start-stack";
import {
  armFaults,
  buyer,
  eventually,
  merchantId,
  merchantOf,
  outboxItem,
  pay,
  screenOf,
  settled,
  sqsOf,
  startAsyncStack,
  watchMetrics,
} from "./support/async-stack";

// The relay gives a failing batch 1 + 3 tries before handing it to the on-failure queue (AWS's mapping retries until
// it succeeds; its records leave only at the stream's 24 h retention, which this stands for).
const RELAY_RETRIES = 3;
let stack: LocalStack;

beforeAll(async () => {
  stack = await startAsyncStack({ RELAY_MAX_RETRY_ATTEMPTS: String(RELAY_RETRIES) });
});
afterAll(async () => {
  await stack?.stop();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await fetch(`${stack.apiUrl}/_local/faults`, { method: "DELETE" });
});

/** The relay's sends of one event, and the message id the queue answered for each. */
async function sendsOf(publish: MockInstance<SqsEventPublisher["publish"]>, eventId: string) {
  const calls = publish.mock.calls.map((c, i) => ({ event: c[0], result: publish.mock.results[i] }));
  const mine = calls.filter((c) => c.event.event_id === eventId);
  const ids = await Promise.all(mine.map(async (c) => (await c.result?.value)?.messageId));
  return { count: mine.length, messageIds: new Set(ids) };
}

describe("P3: the relay crashes after publishing, twice", () => {
  it("sends the event three times with its stored id; the queue keeps one message and the merchant is credited once", async () => {
    // prepare
    const publish = vi.spyOn(SqsEventPublisher.prototype, "publish");
    const metrics = await watchMetrics();
    const b = await buyer(stack, "p3", { phone: "apns" });
    const m = merchantId("m-p3");
    await armFaults(stack, { relay_crash_after_publish: 2 });
    // act
    const { eventId, body } = await pay(stack, b, { merchant: m });
    await settled(stack, eventId);
    // assess
    const sends = await sendsOf(publish, eventId);
    expect(sends.count).toBe(3);
    expect(sends.messageIds.size).toBe(1);
    expect(await merchantOf(stack, m)).toMatchObject({ credits: 1, balance: 3000 });
    expect(metrics.count("InboxDuplicatesDropped")).toBe(0);
    expect((await screenOf(stack, b)).shown.map((s) => s.replace_id)).toEqual([body.payment_id]);
  });
});

describe("P3, the third send: a re-send the queue's window no longer catches", () => {
  it("is dropped by the worker's inbox: no second credit, no second notification", async () => {
    // prepare: a settled payment
    const b = await buyer(stack, "p3-late", { phone: "fcm" });
    const m = merchantId("m-p3-late");
    const { eventId, body } = await pay(stack, b, { merchant: m });
    await settled(stack, eventId);
    const metrics = await watchMetrics();
    // act: the same event again; a fresh dedup id stands in for a re-send after the queue's 5-minute window
    const sqs = sqsOf(stack);
    const event: PaymentEvent = {
      event_id: eventId,
      type: "payment.succeeded",
      payment_id: body.payment_id,
      merchant_id: m,
      caller: b.caller,
      amount: 3000,
      currency: "USD",
      occurred_at: 1,
    };
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: stack.emulators.regions.primary.queues.events,
        MessageBody: JSON.stringify(event),
        MessageDeduplicationId: `${eventId}#after-window`,
        MessageGroupId: m,
      }),
    );
    sqs.destroy();
    await eventually(
      "the inbox to drop the repeat",
      async () => metrics.count("InboxDuplicatesDropped"),
      (n) => n === 1,
    );
    await settled(stack, eventId);
    // assess
    expect(await merchantOf(stack, m)).toMatchObject({ credits: 1, balance: 3000 });
    expect(await screenOf(stack, b)).toMatchObject({ alerts: 1 });
    expect(metrics.count("NotificationsFinishedByRedelivery")).toBe(0);
  });
});

describe("The sweep: the relay gave up on an outbox item (a lost stream record)", () => {
  it("re-sends the item with its stored id once it is older than the threshold, then deletes it", async () => {
    // prepare: every relay try crashes after publishing, until the stream mapping discards the record
    const publish = vi.spyOn(SqsEventPublisher.prototype, "publish");
    const b = await buyer(stack, "sweep");
    const m = merchantId("m-sweep");
    await armFaults(stack, { relay_crash_after_publish: 1 + RELAY_RETRIES });
    const { eventId } = await pay(stack, b, { merchant: m });
    await eventually(
      "the relay to give the record up",
      () => relayFailures(stack),
      // The event rides on the payment's journal entry, so the discarded record names that entry's keys.
      (texts) =>
        texts.some((t) => t.includes(`PAY#${eventId.replace(/:SUCCEEDED$/, "")}`) && t.includes("JOURNAL#1")),
    );
    expect(await outboxItem(eventId)).toBeDefined();
    // act: the item ages past the threshold (120 s) on the shared clock, and the sweep runs
    await fetch(`${stack.apiUrl}/_local/clock`, { method: "POST", body: JSON.stringify({ advance_s: 180 }) });
    const run = (await (await fetch(`${stack.apiUrl}/_local/run/sweeps`, { method: "POST" })).json()) as {
      result: { outbox: unknown };
    };
    // assess
    expect(run.result.outbox).toMatchObject({ resent: 1, failed: 0 });
    expect(await outboxItem(eventId)).toBeUndefined();
    const sends = await sendsOf(publish, eventId);
    expect(sends.count).toBe(2 + RELAY_RETRIES);
    expect(sends.messageIds.size).toBe(1);
    await settled(stack, eventId);
    expect(await merchantOf(stack, m)).toMatchObject({ credits: 1, balance: 3000 });
  });
});

/** The bodies on the relay's on-failure queue (the stream mapping's destination). */
async function relayFailures(s: LocalStack): Promise<string[]> {
  const sqs = sqsOf(s);
  try {
    const out = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: s.emulators.regions.primary.queues.relayFailures,
        MaxNumberOfMessages: 10,
        VisibilityTimeout: 0,
      }),
    );
    return (out.Messages ?? []).map((msg) => msg.Body ?? "");
  } finally {
    sqs.destroy();
  }
}
