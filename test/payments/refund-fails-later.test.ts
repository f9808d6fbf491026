import { randomUUID } from "node:crypto";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterEach, describe, expect, it } from "vitest";
import { clock } from "../../packages/core/src/clock/clock";
import { refundJournalAndOutbox } from "../../packages/core/src/ledger/journal-and-outbox";
import { signWebhook } from "../../packages/core/src/psp/webhook-signature";
import { localSecrets } from "../../packages/local/src/stack/handler-env";
import { eventually, merchantOf, screenOf } from "../async/support/async-stack";
import { postDevice } from "../devices/support/device-api";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";
import { snapshotTables } from "../support/tables";

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
  delete process.env.EO_TEST_UNSAFE_NO_REFUND_FAILED_NOTICE;
  delete process.env.EO_TEST_UNSAFE_TAKE_EARLY_EVENTS;
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

  it("with EO_TEST_UNSAFE_NO_REFUND_TAKE_BACK=1, tells the buyer but leaves the merchant debited", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_REFUND_TAKE_BACK = "1";
    // act
    const { caller, merchant } = await refundedThenFailed();
    const screen = await eventually(
      "the buyer told",
      () => screenOf(stack(), { caller, token: "" }),
      (s) => s.shown.some((n) => n.title === "Refund failed"),
    );
    // assess
    expect(screen.shown.map((s) => s.title)).toEqual(["Refund failed"]);
    expect(await merchantOf(stack(), merchant)).toMatchObject({ balance: 0, credits: 1 });
  });
});

/**
 * A refund of pm_card_refundFail that Stripe holds pending for 100 ms, then succeeds and fails 2 s later, with no
 * webhook: the ledger knows it only as REFUND_PENDING until the resolver reads it by id, failed.
 */
async function failedUnheard() {
  const paid = await paidPayment("pm_card_refundFail");
  stack().psp.setWebhookUrl(undefined);
  await api().local("POST", "/faults", { psp_refund_pending: 100 });
  const cancel = await api().cancel(paid.token, paid.paymentId);
  // Stripe's own (real) clock runs the refund's life; the resolver's wait is the stack's.
  await new Promise((r) => setTimeout(r, 2_500));
  await api().local("POST", "/clock", { advance_s: 120 });
  const pass = (await api().local("POST", "/run/resolver")).body.result as { settled: unknown[] };
  return { ...paid, cancel, pass };
}

describe("a refund Stripe fails before the ledger heard it succeed (pending, then succeeded and failed unseen)", () => {
  it("ends REFUND_FAILED, credits nothing back (nothing was debited), and tells the buyer once", async () => {
    // prepare / act
    const { token, caller, merchant, paymentId, cancel, pass } = await failedUnheard();
    const screen = await eventually(
      "the buyer told",
      () => screenOf(stack(), { caller, token }),
      (s) => s.shown.some((n) => n.title === "Refund failed"),
    );
    await api().local("POST", "/run/resolver");
    await new Promise((r) => setTimeout(r, 1_000));
    const after = await screenOf(stack(), { caller, token });
    const view = await api().get(token, paymentId);
    // assess
    expect([cancel.status, cancel.body.state]).toEqual([202, "REFUND_PENDING"]);
    expect(pass.settled).toContainEqual(
      expect.objectContaining({ payment_id: paymentId, to: "REFUND_FAILED" }),
    );
    expect(view.body.state).toBe("REFUND_FAILED");
    expect(screen.shown.map((s) => s.title)).toEqual(["Refund failed"]);
    expect(after.alerts).toBe(screen.alerts);
    expect(await merchantOf(stack(), merchant)).toMatchObject({ balance: 3000, credits: 1, debits: 0 });
  });

  it("with EO_TEST_UNSAFE_NO_REFUND_FAILED_NOTICE=1, ends REFUND_FAILED and the buyer, told 202, is never told", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_REFUND_FAILED_NOTICE = "1";
    // act
    const { token, caller, paymentId, cancel } = await failedUnheard();
    await new Promise((r) => setTimeout(r, 2_000));
    const view = await api().get(token, paymentId);
    // assess
    expect([cancel.status, cancel.body.state, view.body.state]).toEqual([
      202,
      "REFUND_PENDING",
      "REFUND_FAILED",
    ]);
    expect((await screenOf(stack(), { caller, token })).shown.map((s) => s.title)).toEqual([
      "Payment successful",
    ]);
  });
});

/** Stripe's `refund.failed` for a refund of ours (our metadata, no request of ours), signed as Stripe signs it. */
function deliverRefundFailed(eventId: string, paymentId: string) {
  const refund = {
    id: `re_${eventId}`,
    object: "refund",
    status: "failed",
    metadata: { payment_id: paymentId },
  };
  const body = JSON.stringify({
    id: eventId,
    object: "event",
    type: "refund.failed",
    created: Math.floor(clock.now() / 1000),
    data: { object: { ...refund, failure_reason: "expired_or_canceled_card" } },
    livemode: false,
    request: { id: null, idempotency_key: null },
  });
  const signature = signWebhook(
    localSecrets().StripeWebhookSecret as string,
    body,
    Math.floor(clock.now() / 1000),
  );
  const headers = { "stripe-signature": signature, "content-type": "application/json" };
  return api().send("POST", stack().webhookPath, headers, body);
}

describe("a refund's failure met by a Region behind the refund (after a failover, the refund's writes still in the old Region)", () => {
  it("answers 503 event-ahead and writes nothing, so Stripe delivers it again once this Region has heard of the refund", async () => {
    // prepare: a SUCCEEDED payment here with no refund started, as a standby whose copy lags the cancel
    const { paymentId } = await paidPayment();
    const before = await snapshotTables(stack());
    // act
    const reply = await deliverRefundFailed(`evt_rfa_${paymentId.slice(4, 16)}`, paymentId);
    // assess
    expect(reply.status).toBe(503);
    expect(String(reply.body.type)).toMatch(/\/event-ahead$/);
    expect(reply.headers.get("retry-after")).toBe("2");
    expect(await snapshotTables(stack())).toEqual(before);
  });

  it("answers 503 event-ahead for a payment this Region has no row for yet, and writes nothing", async () => {
    // prepare: the payment and its refund were written in the other Region, cut off before they shipped
    const unseen = `pay_${"f".repeat(24)}${randomUUID().slice(0, 8)}`;
    const before = await snapshotTables(stack());
    // act
    const reply = await deliverRefundFailed(`evt_rfn_${unseen.slice(-8)}`, unseen);
    // assess
    expect(reply.status).toBe(503);
    expect(String(reply.body.detail)).toContain("no row for yet");
    expect(await snapshotTables(stack())).toEqual(before);
  });

  it("counterfactual (EO_TEST_UNSAFE_TAKE_EARLY_EVENTS=1): taken with a 200 and remembered, its redelivery is a duplicate and the failure is lost", async () => {
    // prepare
    const { paymentId } = await paidPayment();
    const eventId = `evt_rfb_${paymentId.slice(4, 16)}`;
    process.env.EO_TEST_UNSAFE_TAKE_EARLY_EVENTS = "1";
    // act
    const taken = await deliverRefundFailed(eventId, paymentId);
    const again = await deliverRefundFailed(eventId, paymentId);
    // assess
    expect([taken.status, taken.body.applied]).toEqual([200, false]);
    expect([again.status, again.body.duplicate]).toEqual([200, true]);
  });
});

describe("a refund each Region heard half of (one saw it succeed and debited; the other, cut off, saw it fail in flight)", () => {
  /** The other Region's REFUNDED entry of the same attempt arrives by replication after the notice-only failure. */
  async function halfHeardEachSide() {
    const failed = await failedUnheard();
    const told = await eventually(
      "the notice told",
      () => screenOf(stack(), { caller: failed.caller, token: failed.token }),
      (s) => s.shown.some((n) => n.title === "Refund failed"),
    );
    const tables = tablesOf(stack());
    const row = await tables.payment(failed.paymentId);
    const table = stack().emulators.regions.primary.ledgerTable;
    const entry = refundJournalAndOutbox(
      table,
      { ...(row as NonNullable<typeof row>) },
      Date.now(),
      "primary",
    );
    await tables.db.send(new PutCommand(entry[0] as ConstructorParameters<typeof PutCommand>[0]));
    return { ...failed, alertsTold: told.alerts };
  }

  it("takes the merchant's debit back once (the notice credited nothing), and tells the buyer no second time", async () => {
    // prepare / act
    const { caller, token, merchant, alertsTold } = await halfHeardEachSide();
    const back = await eventually(
      "the debit and its take-back",
      () => merchantOf(stack(), merchant),
      (m) => m.balance === 3000 && m.credits === 2,
    );
    await new Promise((r) => setTimeout(r, 1_000));
    const screen = await screenOf(stack(), { caller, token });
    // assess
    expect(back).toMatchObject({ balance: 3000, credits: 2 });
    expect(await merchantOf(stack(), merchant)).toMatchObject({ balance: 3000, credits: 2 });
    // The REFUNDED entry is relayed here (in AWS the other Region's worker told it): one push more, none for the
    // take-back, whose intents are the notice's (one event id).
    expect(screen.alerts).toBe(alertsTold + 1);
  });

  it("with EO_TEST_UNSAFE_NO_REFUND_TAKE_BACK=1, leaves the merchant debited for a refund Stripe failed", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_REFUND_TAKE_BACK = "1";
    // act
    const { merchant } = await halfHeardEachSide();
    await eventually(
      "the debit",
      () => merchantOf(stack(), merchant),
      (m) => m.balance === 0,
    );
    await new Promise((r) => setTimeout(r, 2_000));
    // assess
    expect(await merchantOf(stack(), merchant)).toMatchObject({ balance: 0, credits: 1 });
  });
});
