import { describe, expect, it } from "vitest";
import { mapStripeEvent } from "../src/payment/stripe-event";

const PAY = `pay_${"a".repeat(32)}`;

/** An event as Stripe sends it (the fields the mapping reads, and a few it must not trip over). */
function stripeEvent(type: string, object: Record<string, unknown>, key: string | null = `${PAY}:charge`) {
  return {
    id: "evt_1",
    object: "event",
    api_version: "2026-11-18.endive",
    created: 1_764_590_400,
    type,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: "req_1", idempotency_key: key },
  };
}
const intent = (extra: Record<string, unknown> = {}) => ({
  id: "pi_1",
  object: "payment_intent",
  amount: 3000,
  currency: "usd",
  status: "succeeded",
  metadata: { payment_id: PAY },
  latest_charge: "ch_1",
  ...extra,
});

describe("Stripe's events mapped onto the contract's PSP events", () => {
  it("payment_intent.succeeded is charge.succeeded of the PaymentIntent, with our reference and derived key", () => {
    // act
    const mapped = mapStripeEvent(stripeEvent("payment_intent.succeeded", intent()));
    // assess
    expect(mapped).toEqual({
      kind: "event",
      event: {
        id: "evt_1",
        type: "charge.succeeded",
        data: { charge: { id: "pi_1", idempotency_key: `${PAY}:charge`, reference: PAY } },
      },
    });
  });

  it("payment_intent.payment_failed is charge.failed with the decline code of last_payment_error", () => {
    // prepare
    const failed = intent({
      status: "requires_payment_method",
      last_payment_error: { type: "card_error", code: "card_declined", decline_code: "insufficient_funds" },
    });
    // act
    const mapped = mapStripeEvent(stripeEvent("payment_intent.payment_failed", failed));
    // assess
    expect(mapped).toEqual({
      kind: "event",
      event: {
        id: "evt_1",
        type: "charge.failed",
        data: {
          charge: {
            id: "pi_1",
            idempotency_key: `${PAY}:charge`,
            reference: PAY,
            decline_code: "insufficient_funds",
          },
        },
      },
    });
  });

  it.each([
    ["only a code", { code: "expired_card" }, "expired_card"],
    ["no last_payment_error", null, "card_declined"],
  ])("payment_intent.payment_failed with %s declines as %s", (_what, error, code) => {
    // act
    const mapped = mapStripeEvent(
      stripeEvent("payment_intent.payment_failed", intent({ last_payment_error: error })),
    );
    // assess
    expect(mapped.kind === "event" && mapped.event.data.charge.decline_code).toBe(code);
  });

  it("charge.refunded (in full) is refund.succeeded of the charge's PaymentIntent, with the refund's id", () => {
    // prepare: a refund made in Stripe's dashboard carries no key of ours
    const charge = {
      id: "ch_1",
      object: "charge",
      payment_intent: "pi_1",
      refunded: true,
      amount_refunded: 3000,
      metadata: { payment_id: PAY },
      refunds: { object: "list", data: [{ id: "re_1", object: "refund" }] },
    };
    // act
    const mapped = mapStripeEvent(stripeEvent("charge.refunded", charge, null));
    // assess
    expect(mapped).toEqual({
      kind: "event",
      event: {
        id: "evt_1",
        type: "refund.succeeded",
        data: { charge: { id: "pi_1", reference: PAY }, refund: { id: "re_1" } },
      },
      refundStatusUnknown: true,
    });
  });

  it("charge.refunded with an expanded payment_intent and no refunds list still names the intent", () => {
    // act
    const mapped = mapStripeEvent(
      stripeEvent(
        "charge.refunded",
        { id: "ch_1", payment_intent: { id: "pi_1" }, refunded: true, metadata: { payment_id: PAY } },
        `${PAY}:cancel:refund`,
      ),
    );
    // assess
    expect(mapped).toEqual({
      kind: "event",
      event: {
        id: "evt_1",
        type: "refund.succeeded",
        data: { charge: { id: "pi_1", idempotency_key: `${PAY}:cancel:refund`, reference: PAY } },
      },
      // Stripe sends charge.refunded for a refund it holds pending too: it settles no refund of ours in flight.
      refundStatusUnknown: true,
    });
  });

  it("a partial refund is ignored: our payments refund in full, so REFUNDED would be untrue", () => {
    // act
    const mapped = mapStripeEvent(
      stripeEvent("charge.refunded", { id: "ch_1", payment_intent: "pi_1", refunded: false, metadata: {} }),
    );
    // assess
    expect(mapped).toEqual({ kind: "ignored", reason: expect.stringContaining("partly refunded") });
  });

  it.each(["refund.updated", "refund.failed", "charge.refund.updated"])(
    "%s is the refund's own news: its id, status, Stripe's reason and our reference, with no key of ours",
    (type) => {
      // prepare: Stripe failed the refund itself, so the event carries no request of ours
      const refund = {
        id: "re_1",
        object: "refund",
        status: "failed",
        failure_reason: "expired_or_canceled_card",
        payment_intent: "pi_1",
        metadata: { payment_id: PAY },
      };
      // act
      const mapped = mapStripeEvent(stripeEvent(type, refund, null));
      // assess
      expect(mapped).toEqual({
        kind: "refund",
        event: {
          id: "evt_1",
          refundId: "re_1",
          status: "failed",
          reason: "expired_or_canceled_card",
          reference: PAY,
        },
      });
    },
  );

  it.each(["customer.created", "charge.succeeded", "payment_intent.created"])(
    "%s is ignored (answered 200, nothing applied)",
    (type) => {
      // act
      const mapped = mapStripeEvent(stripeEvent(type, { id: "x_1" }));
      // assess
      expect(mapped).toEqual({ kind: "ignored", reason: `event type ${type} is not one we act on` });
    },
  );

  it("an intent that names no payment of ours maps with neither key nor reference (applied as unknown payment)", () => {
    // act
    const mapped = mapStripeEvent(stripeEvent("payment_intent.succeeded", intent({ metadata: {} }), null));
    // assess
    expect(mapped).toEqual({
      kind: "event",
      event: { id: "evt_1", type: "charge.succeeded", data: { charge: { id: "pi_1" } } },
    });
  });

  it.each([
    ["not an object", "hello"],
    ["no id", { type: "payment_intent.succeeded", data: { object: intent() } }],
    ["no data.object", { id: "evt_1", type: "payment_intent.succeeded", data: {} }],
    ["an intent without id", stripeEvent("payment_intent.succeeded", { metadata: { payment_id: PAY } })],
  ])("refuses %s as a bad request", (_what, body) => {
    // act / assess
    expect(() => mapStripeEvent(body)).toThrow(
      expect.objectContaining({ name: "Refusal", kind: "bad-request" }),
    );
  });
});
