import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { eventually, merchantOf, screenOf } from "../async/support/async-stack";
import { postDevice } from "../devices/support/device-api";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";

// Stripe's refunds as Stripe has them (issue 39): only a `succeeded` refund is done. Run in Stripe's dialect only
// (vitest.config.ts, STRIPE_ONLY): the generic PSP has neither pending refunds nor refunds that fail later.
if (process.env.PSP !== "stripe") throw new Error("refund-fails-later runs in Stripe's dialect: PSP=stripe");

const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);
const refundKeys = (paymentId: string) =>
  stack()
    .psp.refunds()
    .filter((r) => r.idempotency_key.startsWith(`${paymentId}:cancel:refund`))
    .map((r) => r.idempotency_key);

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_PENDING_REFUND_IS_DONE;
  delete process.env.EO_TEST_UNSAFE_NO_REFUND_TAKE_BACK;
  stack().psp.setWebhookUrl(`${stack().apiUrl}${stack().webhookPath}`);
});

/** A buyer with a phone, and a payment of theirs to a merchant of this test alone, settled and credited. */
async function paidPayment(paymentMethod = "pm_card_visa") {
  const caller = `u-${randomUUID().slice(0, 8)}`;
  const merchant = `m-${randomUUID().slice(0, 8)}`;
  const token = await api().token(caller);
  await postDevice(stack(), { token }, "apns", `tok-${caller}`);
  const paid = await api().pay(
    token,
    newKey(),
    order42({ merchant_id: merchant, payment_method: paymentMethod }),
  );
  const paymentId = String(paid.body.payment_id);
  await eventually(
    "the payment's credit",
    () => merchantOf(stack(), merchant),
    (m) => m.balance === 3000,
  );
  return { token, caller, merchant, paymentId };
}

describe("a refund Stripe holds pending (insufficient_funds)", () => {
  it("stays REFUND_PENDING with 202 until a read by id finds it succeeded, then REFUNDED with one debit", async () => {
    // prepare
    const { token, merchant, paymentId } = await paidPayment();
    await api().local("POST", "/faults", { psp_refund_pending: 0 });
    // act: Stripe's charge.refunded (sent for a pending refund too) settles nothing; then, with no events, only a
    // read of the refund by its id can learn how it ended
    const first = await api().cancel(token, paymentId);
    await new Promise((r) => setTimeout(r, 500));
    const again = await api().cancel(token, paymentId);
    const whilePending = await merchantOf(stack(), merchant);
    stack().psp.setWebhookUrl(undefined);
    const toppedUp = stack().psp.topUpBalance();
    await api().local("POST", "/clock", { advance_s: 120 });
    const pass = (await api().local("POST", "/run/resolver")).body.result as { settled: unknown[] };
    const view = await api().get(token, paymentId);
    // assess
    expect([first.status, first.body.state, again.status, again.body.state]).toEqual([
      202,
      "REFUND_PENDING",
      202,
      "REFUND_PENDING",
    ]);
    expect(whilePending.balance).toBe(3000);
    expect(toppedUp).toBe(1);
    expect(pass.settled).toContainEqual({ payment_id: paymentId, from: "REFUND_PENDING", to: "REFUNDED" });
    expect(view.body.state).toBe("REFUNDED");
    expect(refundKeys(paymentId)).toEqual([`${paymentId}:cancel:refund`]);
    const debited = await eventually(
      "the debit",
      () => merchantOf(stack(), merchant),
      (m) => m.balance === 0,
    );
    expect(debited).toMatchObject({ balance: 0, credits: 1 });
  });

  it("with EO_TEST_UNSAFE_PENDING_REFUND_IS_DONE=1, tells the buyer REFUNDED and debits the merchant while the money stays", async () => {
    // prepare
    const { token, merchant, paymentId } = await paidPayment();
    stack().psp.setWebhookUrl(undefined);
    await api().local("POST", "/faults", { psp_refund_pending: 0 });
    process.env.EO_TEST_UNSAFE_PENDING_REFUND_IS_DONE = "1";
    // act
    const cancel = await api().cancel(token, paymentId);
    const debited = await eventually(
      "the debit",
      () => merchantOf(stack(), merchant),
      (m) => m.balance === 0,
    );
    // assess: the refund was still pending at Stripe (the top up is what finished it)
    expect([cancel.status, cancel.body.state]).toEqual([200, "REFUNDED"]);
    expect(debited.balance).toBe(0);
    expect(stack().psp.topUpBalance()).toBe(1);
  });
});

describe("a refund Stripe fails after it succeeded (pm_card_refundFail, which fails every refund 2 s later)", () => {
  async function refundedThenFailed() {
    const paid = await paidPayment("pm_card_refundFail");
    const cancel = await api().cancel(paid.token, paid.paymentId);
    const failed = await eventually(
      "REFUND_FAILED",
      () => api().get(paid.token, paid.paymentId),
      (view) => view.body.state === "REFUND_FAILED",
    );
    return { ...paid, cancel, failed };
  }

  it("ends REFUND_FAILED with Stripe's reason, takes the merchant's debit back once, tells the buyer once, counts the anomaly, and a later cancel refunds with :cancel:refund:2", async () => {
    // prepare
    const { token, caller, merchant, paymentId, cancel, failed } = await refundedThenFailed();
    // act
    const back = await eventually(
      "the take-back credit",
      () => merchantOf(stack(), merchant),
      (m) => m.balance === 3000 && m.credits === 2,
    );
    const screen = await eventually(
      "the buyer told",
      () => screenOf(stack(), { caller, token }),
      (s) => s.alerts >= 3,
    );
    const pass = (await api().local("POST", "/run/resolver")).body.result as { anomalies: unknown[] };
    const retry = await api().cancel(token, paymentId);
    // The card fails the second refund too: its own entries and events (`:REFUNDED:2`, `:REFUND_FAILED:2`).
    await eventually(
      "attempt 2 failed",
      () => api().get(token, paymentId),
      (v) => v.body.state === "REFUND_FAILED",
    );
    const twice = await eventually(
      "attempt 2 taken back",
      () => merchantOf(stack(), merchant),
      (m) => m.balance === 3000 && m.credits === 3,
    );
    // assess
    expect([cancel.status, cancel.body.state]).toEqual([200, "REFUNDED"]);
    expect(failed.body.refund_failure_reason).toBe("expired_or_canceled_card");
    expect(back).toMatchObject({ balance: 3000, credits: 2 });
    expect(screen.alerts).toBe(3);
    expect(screen.shown.map((s) => s.title)).toEqual(["Refund failed"]);
    expect(pass.anomalies).toContainEqual(
      expect.objectContaining({ payment_id: paymentId, kind: "refund-failed-later" }),
    );
    expect([retry.status, retry.body.state]).toEqual([200, "REFUNDED"]);
    expect(refundKeys(paymentId)).toEqual([`${paymentId}:cancel:refund`, `${paymentId}:cancel:refund:2`]);
    const journal = await tablesOf(stack()).journal(paymentId);
    expect(twice).toMatchObject({ balance: 3000, credits: 3, debits: 2 });
    expect([...new Set(journal.map((leg) => leg.sk))].sort()).toEqual([
      "JOURNAL#1",
      "JOURNAL#3",
      "JOURNAL#3#2",
      "JOURNAL#4",
      "JOURNAL#4#2",
    ]);
  });

  it("with EO_TEST_UNSAFE_NO_REFUND_TAKE_BACK=1, leaves the merchant debited and the buyer untold", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_REFUND_TAKE_BACK = "1";
    // act
    const { caller, merchant } = await refundedThenFailed();
    await new Promise((r) => setTimeout(r, 1_500));
    // assess
    expect(await merchantOf(stack(), merchant)).toMatchObject({ balance: 0, credits: 1 });
    expect((await screenOf(stack(), { caller, token: "" })).shown.map((s) => s.title)).toEqual([
      "Payment refunded",
    ]);
  });
});
