import { paymentIdOf } from "@eo/core";
import Stripe from "stripe";
import { beforeEach, describe, expect, it } from "vitest";
import { clock } from "../../packages/core/src/clock/clock";
import { signWebhook } from "../../packages/core/src/psp/webhook-signature";
import { localSecrets } from "../../packages/local/src/stack/handler-env";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";
import { snapshotTables } from "../support/tables";

// The route is served whatever dialect the stack's fake speaks (locally both webhook secrets are linked), so these
// tests post Stripe's events themselves, signed as Stripe signs them, on the default stack.
const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);
const SECRET = localSecrets().StripeWebhookSecret as string;
const nowS = () => Math.floor(clock.now() / 1000);

/** A Stripe event of `type` about `object`, as Stripe posts it. */
function stripeEvent(id: string, type: string, object: Record<string, unknown>, key: string | null = null) {
  return {
    id,
    object: "event",
    api_version: "2026-11-18.endive",
    created: nowS(),
    type,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: "req_test", idempotency_key: key },
  };
}
const intentOf = (paymentId: string, id: string, extra: Record<string, unknown> = {}) => ({
  id,
  object: "payment_intent",
  amount: 3000,
  currency: "usd",
  status: "succeeded",
  metadata: { payment_id: paymentId },
  ...extra,
});

/** Posts a body to /webhooks/stripe with the given Stripe-Signature (by default a good one, signed now). */
function deliver(event: unknown, header?: (body: string) => string) {
  const body = JSON.stringify(event);
  const signature = header ? header(body) : signWebhook(SECRET, body, nowS());
  return api().send(
    "POST",
    "/webhooks/stripe",
    { ...(signature ? { "stripe-signature": signature } : {}), "content-type": "application/json" },
    body,
  );
}

async function paidPayment() {
  const token = await api().token("u-stripe");
  const paid = await api().pay(token, newKey(), order42());
  const paymentId = String(paid.body.payment_id);
  return { paymentId, charge: String((await tablesOf(stack()).payment(paymentId))?.psp_charge) };
}

/** A payment whose handler died after its durable guard, before the PSP: its row is PENDING. */
async function pendingPayment() {
  const token = await api().token("u-stripe");
  // A warm handler: a cold start's module loading would eat the deadline before the crash point.
  await api().pay(token, newKey(), order42({ order_id: "warm-up" }));
  const key = newKey();
  await api().local("POST", "/faults", { crash_at: "pay.after_guard", n: 1 });
  const died = await api().pay(token, key, order42());
  const paymentId = paymentIdOf("u-stripe", key);
  return { died, paymentId };
}

beforeEach(() => {
  // The fake's own (generic) webhooks stay out of these payments: only the events posted here apply.
  stack().psp.setWebhookUrl(undefined);
});

describe("POST /webhooks/stripe: Stripe-Signature checked by the SDK", () => {
  it.each([
    ["a wrong secret", (body: string) => signWebhook("whsec_not_the_secret", body, nowS())],
    ["a timestamp 301 s old", (body: string) => signWebhook(SECRET, body, nowS() - 301)],
    ["a header with no v1", () => `t=${nowS()}`],
    ["no Stripe-Signature header", () => ""],
  ])("answers 400 problem+json to %s, and writes nothing", async (_what, header) => {
    // prepare: an event that, accepted, would refund a paid payment
    const { paymentId, charge } = await paidPayment();
    const event = stripeEvent(`evt_bad_${paymentId}`, "charge.refunded", {
      id: "ch_refunded",
      object: "charge",
      payment_intent: charge,
      refunded: true,
      metadata: { payment_id: paymentId },
    });
    const before = await snapshotTables(stack());
    // act
    const reply = await deliver(event, header);
    // assess
    expect(reply.status).toBe(400);
    expect(reply.headers.get("content-type")).toContain("application/problem+json");
    expect(String(reply.body.detail)).toMatch(/^webhook signature rejected: \S/);
    expect(await snapshotTables(stack())).toEqual(before);
    expect((await tablesOf(stack()).payment(paymentId))?.state).toBe("SUCCEEDED");
  });

  it("says why a stale timestamp is refused", async () => {
    // act
    const reply = await deliver(stripeEvent("evt_stale", "customer.created", { id: "cus_1" }), (body) =>
      signWebhook(SECRET, body, nowS() - 600),
    );
    // assess
    expect(reply.status).toBe(400);
    expect(String(reply.body.detail)).toContain("Timestamp outside the tolerance zone");
  });

  it("accepts the header Stripe's SDK makes for the same secret (generateTestHeaderString)", async () => {
    // act
    const reply = await deliver(stripeEvent("evt_sdk_header", "customer.created", { id: "cus_1" }), (body) =>
      Stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET, timestamp: nowS() }),
    );
    // assess
    expect(reply.status).toBe(200);
  });
});

describe("Stripe's events applied as the PSP's", () => {
  it("payment_intent.succeeded settles a PENDING payment once, even when delivered twice", async () => {
    // prepare
    const { died, paymentId } = await pendingPayment();
    const t = tablesOf(stack());
    const stateBefore = (await t.payment(paymentId))?.state;
    const event = stripeEvent(
      `evt_ok_${paymentId}`,
      "payment_intent.succeeded",
      intentOf(paymentId, "pi_settles"),
      `${paymentId}:charge`,
    );
    // act
    const first = await deliver(event);
    const second = await deliver(event);
    // assess
    expect(died.status).toBe(500);
    expect(stateBefore).toBe("PENDING");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ received: true, applied: true, duplicate: false });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ applied: false, duplicate: true });
    const row = await t.payment(paymentId);
    expect(row?.state).toBe("SUCCEEDED");
    expect(row?.psp_charge).toBe("pi_settles");
    // One charge entry: the merchant is credited once.
    expect(await t.journal(paymentId)).toHaveLength(2);
  });

  it("payment_intent.payment_failed fails a PENDING payment with the decline code of last_payment_error", async () => {
    // prepare
    const { paymentId } = await pendingPayment();
    const failed = intentOf(paymentId, "pi_declined", {
      status: "requires_payment_method",
      last_payment_error: { type: "card_error", code: "card_declined", decline_code: "insufficient_funds" },
    });
    // act
    const reply = await deliver(
      stripeEvent(`evt_fail_${paymentId}`, "payment_intent.payment_failed", failed),
    );
    // assess
    expect(reply.status).toBe(200);
    expect(reply.body.applied).toBe(true);
    const row = await tablesOf(stack()).payment(paymentId);
    expect(row?.state).toBe("FAILED");
    expect(row?.decline_code).toBe("insufficient_funds");
  });

  it("charge.refunded (a refund made at Stripe directly) moves a SUCCEEDED payment to REFUNDED", async () => {
    // prepare
    const { paymentId, charge } = await paidPayment();
    const refunded = {
      id: "ch_direct",
      object: "charge",
      payment_intent: charge,
      refunded: true,
      metadata: { payment_id: paymentId },
      refunds: { object: "list", data: [{ id: "re_direct", object: "refund" }] },
    };
    // act
    const reply = await deliver(stripeEvent(`evt_rf_${paymentId}`, "charge.refunded", refunded));
    // assess
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.applied).toBe(true);
    const row = await tablesOf(stack()).payment(paymentId);
    expect(row?.state).toBe("REFUNDED");
    expect(row?.psp_refund).toBe("re_direct");
  });

  it("payment_intent.succeeded for a FAILED payment is recorded once as an anomaly; the state stays FAILED", async () => {
    // prepare
    const token = await api().token("u-stripe");
    const declined = await api().pay(token, newKey(), order42({ payment_method: "pm_card_declined" }));
    const paymentId = String(declined.body.payment_id);
    const event = stripeEvent(
      `evt_surprise_${paymentId}`,
      "payment_intent.succeeded",
      intentOf(paymentId, "pi_surprise"),
    );
    // act
    const first = await deliver(event);
    const repeat = await deliver(event);
    // assess
    expect(declined.status).toBe(402);
    expect(first.status).toBe(200);
    expect(first.body.anomaly).toBe(true);
    expect(repeat.body.anomaly).toBeUndefined();
    const row = await tablesOf(stack()).payment(paymentId);
    expect(row?.state).toBe("FAILED");
    expect(row?.anomaly).toMatchObject({ kind: "charge-succeeded-for-failed", psp_charge: "pi_surprise" });
  });

  it("answers 200 to a type it does not act on, and writes nothing", async () => {
    // prepare
    const before = await snapshotTables(stack());
    // act
    const reply = await deliver(
      stripeEvent("evt_other", "customer.created", { id: "cus_1", object: "customer" }),
    );
    // assess
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      received: true,
      ignored: "event type customer.created is not one we act on",
    });
    expect(await snapshotTables(stack())).toEqual(before);
  });
});
