import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { LocalStack } from "../../packages/local/src/stack/start-stack";
import {
  armFaults,
  type Buyer,
  buyer,
  drained,
  emailsTo,
  intentOf,
  merchantId,
  merchantOf,
  pay,
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
afterEach(async () => {
  await fetch(`${stack.apiUrl}/_local/faults`, { method: "DELETE" });
});

/** `POST /payments/{id}/cancel` as the buyer's app sends it. */
async function cancel(b: Buyer, paymentId: string) {
  const res = await fetch(`${stack.apiUrl}/payments/${paymentId}/cancel`, {
    method: "POST",
    headers: { authorization: `Bearer ${b.token}` },
  });
  return { status: res.status, body: (await res.json()) as { state?: string } };
}

/** A buyer who paid a merchant 30.00, with the payment's credit, push and email all done. */
async function paidPayment(name: string) {
  const b = await buyer(stack, name, { phone: "apns", email: true });
  const m = merchantId(`m-${name}`);
  const paid = await pay(stack, b, { merchant: m });
  await settled(stack, paid.eventId, ["push", "email"]);
  const paymentId = paid.body.payment_id;
  return { b, m, paymentId, refundEventId: `${paymentId}:REFUNDED` };
}

describe("A refund reverses the merchant's credit: the REFUNDED event, applied once through the inbox", () => {
  it("debits the amount once, replaces the 'paid' push with a 'refunded' one and emails the buyer", async () => {
    // prepare
    const { b, m, paymentId, refundEventId } = await paidPayment("refund");
    expect(await merchantOf(stack, m)).toMatchObject({ balance: 3000, credits: 1, debits: 0 });
    // act
    expect(await cancel(b, paymentId)).toMatchObject({ status: 200, body: { state: "REFUNDED" } });
    await settled(stack, refundEventId, ["push", "email"]);
    // assess: the balance is back to before, the payment's credit record stays and one debit stands beside it
    expect(await merchantOf(stack, m)).toMatchObject({ balance: 0, credits: 1, debits: 1 });
    const screen = await screenOf(stack, b);
    expect(screen.shown).toEqual([
      {
        replace_id: paymentId,
        title: "Payment refunded",
        body: `Your payment of $30.00 to ${m} was refunded.`,
      },
    ]);
    expect(screen.alerts).toBe(2);
    const emails = await emailsTo(stack, b.email as string);
    expect(emails.map((e) => e.subject).sort()).toEqual([
      `Your receipt for payment ${paymentId}`,
      `Your refund for payment ${paymentId}`,
    ]);
    expect(await intentOf(refundEventId, "email")).toMatchObject({ state: "SENT" });
  });

  it("a redelivered REFUNDED event debits once: after a crash past the commit, and re-sent later with a new dedup id", async () => {
    // prepare
    const metrics = await watchMetrics();
    const { b, m, paymentId, refundEventId } = await paidPayment("refund-again");
    await armFaults(stack, { worker_crash_after_commit: 1 });
    // act 1: the first delivery commits the debit and dies; the redelivery finds the inbox done and notifies
    expect((await cancel(b, paymentId)).status).toBe(200);
    await settled(stack, refundEventId, ["push", "email"]);
    // act 2: the same event again, past the queue's dedup window (as a sweep or a redrive would re-send it)
    const sqs = sqsOf(stack);
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: stack.emulators.regions.primary.queues.events,
        MessageBody: JSON.stringify({
          event_id: refundEventId,
          type: "payment.refunded",
          payment_id: paymentId,
          merchant_id: m,
          caller: b.caller,
          email: b.email,
          amount: 3000,
          currency: "USD",
          occurred_at: Date.now(),
        }),
        MessageDeduplicationId: `${refundEventId}:resent`,
        MessageGroupId: m,
      }),
    );
    sqs.destroy();
    await drained(stack, refundEventId);
    // assess
    expect(await merchantOf(stack, m)).toMatchObject({ balance: 0, credits: 1, debits: 1 });
    expect(metrics.count("InboxDuplicatesDropped")).toBe(2);
    const screen = await screenOf(stack, b);
    expect(screen.shown).toHaveLength(1);
    expect(screen.shown[0]).toMatchObject({ replace_id: paymentId, title: "Payment refunded" });
    expect(await emailsTo(stack, b.email as string)).toHaveLength(2);
    metrics.stop();
  });
});
