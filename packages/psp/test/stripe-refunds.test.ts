import Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";
import { call } from "./http-client";
import { intentParams, type StripeRig, startRig, thrown } from "./stripe-harness";

let rig: StripeRig | undefined;

afterEach(async () => {
  await rig?.psp.stop();
  rig = undefined;
});

async function charged(r: StripeRig, paymentId = "pay_1") {
  return r.stripe.paymentIntents.create(intentParams(paymentId), { idempotencyKey: `charge-${paymentId}` });
}

describe("refunds through the Stripe SDK", () => {
  it("refunds a PaymentIntent, and its latest charge then shows refunded", async () => {
    // prepare
    rig = await startRig();
    const { psp, stripe } = rig;
    const intent = await charged(rig);
    // act
    const refund = await stripe.refunds.create(
      { payment_intent: intent.id, metadata: { payment_id: "pay_1" } },
      { idempotencyKey: "r1" },
    );
    const after = await stripe.paymentIntents.retrieve(intent.id, { expand: ["latest_charge"] });
    // assess
    expect(refund).toMatchObject({
      object: "refund",
      payment_intent: intent.id,
      charge: intent.latest_charge,
      amount: 3000,
      status: "succeeded",
      metadata: { payment_id: "pay_1" },
    });
    expect(refund.id).toMatch(/^re_/);
    expect((after.latest_charge as Stripe.Charge).refunded).toBe(true);
    expect(psp.charges()[0]?.refunded).toBe(true);
    expect(psp.refunds()).toEqual([{ id: refund.id, charge: intent.id, idempotency_key: "r1" }]);
  });

  it("replays a refund for the same key with Idempotent-Replayed, refunding once", async () => {
    // prepare
    rig = await startRig();
    const { psp, stripe } = rig;
    const intent = await charged(rig);
    const first = await stripe.refunds.create({ payment_intent: intent.id }, { idempotencyKey: "r1" });
    // act
    const again = await stripe.refunds.create({ payment_intent: intent.id }, { idempotencyKey: "r1" });
    // assess
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers["idempotent-replayed"]).toBe("true");
    expect(psp.refunds()).toHaveLength(1);
  });

  it("refuses a second refund under another key with charge_already_refunded", async () => {
    // prepare
    rig = await startRig();
    const { psp, stripe } = rig;
    const intent = await charged(rig);
    await stripe.refunds.create({ payment_intent: intent.id }, { idempotencyKey: "r1" });
    // act
    const err = await thrown(stripe.refunds.create({ payment_intent: intent.id }, { idempotencyKey: "r2" }));
    // assess
    expect(err).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(err).toMatchObject({ statusCode: 400, code: "charge_already_refunded" });
    expect(err.headers?.["stripe-should-retry"]).toBeUndefined();
    expect(psp.refunds()).toHaveLength(1);
  });

  it("refuses under psp_refund_refuse with a code, saved under the key", async () => {
    // prepare
    rig = await startRig();
    const { psp, stripe, faults } = rig;
    const intent = await charged(rig);
    faults.arm("psp_refund_refuse", 1);
    // act
    const err = await thrown(stripe.refunds.create({ payment_intent: intent.id }, { idempotencyKey: "r1" }));
    const again = await thrown(
      stripe.refunds.create({ payment_intent: intent.id }, { idempotencyKey: "r1" }),
    );
    // assess
    expect(err).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(err.code).toBe("balance_insufficient");
    expect(again.headers?.["idempotent-replayed"]).toBe("true");
    expect(psp.refunds()).toEqual([]);
  });

  it("answers an unknown intent with resource_missing", async () => {
    // prepare
    rig = await startRig();
    // act
    const err = await thrown(
      rig.stripe.refunds.create({ payment_intent: "pi_nope" }, { idempotencyKey: "r1" }),
    );
    // assess
    expect(err).toMatchObject({ statusCode: 404, code: "resource_missing", param: "payment_intent" });
  });

  it("lists an intent's refunds by payment_intent", async () => {
    // prepare
    rig = await startRig();
    const { stripe } = rig;
    const intent = await charged(rig, "pay_1");
    const other = await charged(rig, "pay_2");
    const refund = await stripe.refunds.create({ payment_intent: intent.id }, { idempotencyKey: "r1" });
    await stripe.refunds.create({ payment_intent: other.id }, { idempotencyKey: "r2" });
    // act
    const listed = await stripe.refunds.list({ payment_intent: intent.id }).autoPagingToArray({ limit: 100 });
    const none = await stripe.refunds.list({ payment_intent: "pi_other" });
    // assess
    expect(listed.map((r) => r.id)).toEqual([refund.id]);
    expect(listed[0]?.payment_intent).toBe(intent.id);
    expect(none.data).toEqual([]);
  });

  it("keeps the generic JSON refund of a generic charge working beside it", async () => {
    // prepare
    rig = await startRig();
    const { psp } = rig;
    const json = { amount: 3000, currency: "USD", payment_method: "pm_1", reference: "pay_g" };
    const charge = await call<{ id: string }>(psp.url, "POST", "/v1/charges", { key: "g1", json });
    // act
    const refund = await call<{ charge: string }>(psp.url, "POST", "/v1/refunds", {
      key: "g2",
      json: { charge: charge.body.id, reference: "pay_g" },
    });
    // assess
    expect(refund.status).toBe(200);
    expect(refund.body.charge).toBe(charge.body.id);
    expect(refund.headers["stripe-should-retry"]).toBeUndefined();
  });
});
