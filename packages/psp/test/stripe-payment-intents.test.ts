import Stripe from "stripe";
import { afterEach, describe, expect, it, vi } from "vitest";
import { STRIPE_API_VERSION } from "../src/index";
import { intentParams, type StripeRig, startRig, thrown } from "./stripe-harness";

let rig: StripeRig | undefined;

afterEach(async () => {
  await rig?.psp.stop();
  rig = undefined;
});

describe("a charge through the Stripe SDK (PaymentIntent create + confirm)", () => {
  it("succeeds with a PaymentIntent naming our payment, recorded in the ledger as a pi_ charge", async () => {
    // prepare
    rig = await startRig();
    const { psp, stripe } = rig;
    // act
    const intent = await stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    // assess
    expect(intent).toMatchObject({
      object: "payment_intent",
      amount: 3000,
      currency: "usd",
      status: "succeeded",
      // Each use of a test shortcut makes a new PaymentMethod, as at Stripe.
      payment_method: expect.stringMatching(/^pm_[0-9a-f]{24}$/),
      metadata: { payment_id: "pay_1" },
      livemode: false,
    });
    expect(intent.id).toMatch(/^pi_/);
    expect(intent.latest_charge).toMatch(/^ch_/);
    expect(intent.lastResponse.requestId).toMatch(/^req_/);
    expect(intent.lastResponse.headers["idempotent-replayed"]).toBeUndefined();
    expect(psp.charges()).toEqual([
      {
        id: intent.id,
        idempotency_key: "k1",
        reference: "pay_1",
        amount: 3000,
        currency: "usd",
        refunded: false,
      },
    ]);
    expect(psp.stats().by_endpoint["POST /v1/payment_intents"]).toBe(1);
  });

  it("replays the saved intent for the same key and parameters, with Idempotent-Replayed, charging once", async () => {
    // prepare
    rig = await startRig();
    const { psp, stripe } = rig;
    const first = await stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    // act
    const again = await stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    // assess
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers["idempotent-replayed"]).toBe("true");
    expect(again.lastResponse.requestId).not.toBe(first.lastResponse.requestId);
    expect(psp.charges()).toHaveLength(1);
  });

  it("inlines the charge with expand[]=latest_charge, on create and on retrieve", async () => {
    // prepare
    rig = await startRig();
    const { stripe } = rig;
    // act
    const created = await stripe.paymentIntents.create(intentParams("pay_1", { expand: ["latest_charge"] }), {
      idempotencyKey: "k1",
    });
    const retrieved = await stripe.paymentIntents.retrieve(created.id, { expand: ["latest_charge"] });
    const plain = await stripe.paymentIntents.retrieve(created.id);
    // assess
    const charge = created.latest_charge as Stripe.Charge;
    expect(charge).toMatchObject({
      object: "charge",
      payment_intent: created.id,
      refunded: false,
      paid: true,
    });
    expect(charge.metadata).toEqual({ payment_id: "pay_1" });
    expect(retrieved.latest_charge).toEqual(charge);
    expect(plain.latest_charge).toBe(charge.id);
  });

  it("answers an unknown intent with StripeInvalidRequestError resource_missing (404)", async () => {
    // prepare
    rig = await startRig();
    // act
    const err = await thrown(rig.stripe.paymentIntents.retrieve("pi_missing"));
    // assess
    expect(err).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(err.statusCode).toBe(404);
    expect(err.code).toBe("resource_missing");
  });

  it("answers the SDK's own API version", () => {
    expect(STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
  });
});

describe("a declined card", () => {
  it("throws StripeCardError with decline_code and the intent, saves it and replays it (Should-Retry false on the replay only)", async () => {
    // prepare
    rig = await startRig();
    const { psp, stripe } = rig;
    const params = intentParams("pay_1", { payment_method: "pm_card_declined" });
    // act
    const err = await thrown(stripe.paymentIntents.create(params, { idempotencyKey: "k1" }));
    const again = await thrown(stripe.paymentIntents.create(params, { idempotencyKey: "k1" }));
    // assess
    expect(err).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(err).toMatchObject({ statusCode: 402, code: "card_declined", decline_code: "generic_decline" });
    expect(err.payment_intent).toMatchObject({
      status: "requires_payment_method",
      metadata: { payment_id: "pay_1" },
      last_payment_error: { code: "card_declined", decline_code: "generic_decline" },
    });
    expect(err.headers?.["stripe-should-retry"]).toBeUndefined();
    expect(again.payment_intent?.id).toBe(err.payment_intent?.id);
    expect(again.headers?.["idempotent-replayed"]).toBe("true");
    expect(again.headers?.["stripe-should-retry"]).toBe("false");
    expect(psp.charges()).toEqual([]);
  });

  it("gives the decline code of Stripe's insufficient-funds test card", async () => {
    // prepare
    rig = await startRig();
    const params = intentParams("pay_1", { payment_method: "pm_card_visa_chargeDeclinedInsufficientFunds" });
    // act
    const err = await thrown(rig.stripe.paymentIntents.create(params, { idempotencyKey: "k1" }));
    // assess
    expect(err).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(err.decline_code).toBe("insufficient_funds");
  });
});

describe("Stripe's idempotency rules", () => {
  it("refuses a key reused with other parameters with StripeIdempotencyError, charging nothing more", async () => {
    // prepare
    rig = await startRig();
    const { psp, stripe } = rig;
    await stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    // act
    const err = await thrown(
      stripe.paymentIntents.create(intentParams("pay_1", { amount: 3001 }), { idempotencyKey: "k1" }),
    );
    // assess
    expect(err).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(err.statusCode).toBe(400);
    expect(err.message).toContain("same parameters");
    expect(err.headers?.["stripe-should-retry"]).toBe("false");
    expect(psp.charges()).toHaveLength(1);
  });

  it("answers 409 idempotency_key_in_use to a second request while the first with that key is held", async () => {
    // prepare
    rig = await startRig();
    const { psp, stripe, faults } = rig;
    faults.arm("psp_delay_ms", 500);
    const slow = stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    await vi.waitFor(() => expect(psp.stats().held).toBe(1), { timeout: 2000, interval: 5 });
    // act
    const err = await thrown(stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" }));
    const first = await slow;
    // assess
    expect(err).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(err).toMatchObject({
      statusCode: 409,
      rawType: "idempotency_error",
      code: "idempotency_key_in_use",
    });
    expect(err.headers?.["stripe-should-retry"]).toBe("true");
    expect(first.status).toBe("succeeded");
    expect(psp.charges()).toHaveLength(1);
  });

  it("saves an injected 500 (no Should-Retry) and replays it (Should-Retry false), charging nothing", async () => {
    // prepare
    rig = await startRig();
    const { psp, stripe, faults } = rig;
    faults.arm("psp_fail", 500);
    // act
    const fresh = await thrown(stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" }));
    const replayed = await thrown(
      stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" }),
    );
    // assess
    expect(fresh).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(fresh).toMatchObject({ statusCode: 500, rawType: "api_error" });
    expect(fresh.headers?.["stripe-should-retry"]).toBeUndefined();
    expect(fresh.headers?.["idempotent-replayed"]).toBeUndefined();
    expect(replayed).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(replayed.headers?.["idempotent-replayed"]).toBe("true");
    expect(replayed.headers?.["stripe-should-retry"]).toBe("false");
    expect(psp.charges()).toEqual([]);
  });
});

describe("rate limits in Stripe's dialect", () => {
  it("answers psp_rate_limit with StripeRateLimitError (429 rate_limit), unsaved: the same key then charges once", async () => {
    // prepare
    rig = await startRig();
    const { psp, stripe, faults } = rig;
    faults.arm("psp_rate_limit", 1);
    // act
    const err = await thrown(stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" }));
    const chargedAfterLimit = psp.charges().length;
    const retry = await stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    // assess
    expect(err).toBeInstanceOf(Stripe.errors.StripeRateLimitError);
    expect(err).toMatchObject({ statusCode: 429, rawType: "invalid_request_error", code: "rate_limit" });
    expect(err.headers?.["retry-after"]).toBe("1");
    expect(err.headers?.["stripe-should-retry"]).toBeUndefined();
    expect(chargedAfterLimit).toBe(0);
    expect(retry.lastResponse.headers["idempotent-replayed"]).toBeUndefined();
    expect(psp.charges()).toHaveLength(1);
  });

  it("answers the limiter's own 429 the same way beyond the per-endpoint limit", async () => {
    // prepare
    rig = await startRig({ rateLimits: { perAccount: 100, perEndpoint: 2 } });
    const { stripe } = rig;
    // act
    const outcomes = await Promise.allSettled(
      [1, 2, 3].map((i) =>
        stripe.paymentIntents.create(intentParams(`pay_${i}`), { idempotencyKey: `k${i}` }),
      ),
    );
    // assess
    const refused = outcomes.filter((o) => o.status === "rejected").map((o) => o.reason);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(Stripe.errors.StripeRateLimitError);
    expect(rig.psp.charges()).toHaveLength(2);
  });
});

describe("request validation", () => {
  it("takes an intent with no metadata, as Stripe requires none", async () => {
    // prepare
    rig = await startRig();
    // act
    const params = intentParams("pay_1", { metadata: {} });
    const intent = await rig.stripe.paymentIntents.create(params, { idempotencyKey: "k1" });
    // assess
    expect(intent).toMatchObject({ status: "succeeded", metadata: {} });
  });

  it("answers a non-integer amount with parameter_invalid_integer", async () => {
    // prepare
    rig = await startRig();
    // act
    const params = intentParams("pay_1", { amount: 12.5 });
    const err = await thrown(rig.stripe.paymentIntents.create(params, { idempotencyKey: "k1" }));
    // assess
    expect(err).toMatchObject({ statusCode: 400, code: "parameter_invalid_integer", param: "amount" });
  });
});
