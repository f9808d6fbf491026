import { manualClock } from "@eo/core";
import Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";
import type { StripeEvent } from "../src/index";
import { intentParams, type StripeRig, startRig, thrown } from "./stripe-harness";

let rig: StripeRig | undefined;

afterEach(async () => {
  await rig?.psp.stop();
  rig = undefined;
});

const THREE_D_SECURE_CARDS = [
  "pm_card_authenticationRequired",
  "pm_card_authenticationRequiredOnSetup",
  "pm_card_threeDSecure2Required",
  "pm_card_threeDSecureRequired",
];

function types(r: StripeRig): string[] {
  return (r.psp.webhookEvents() as StripeEvent[]).map((e) => e.type);
}

describe("a PaymentIntent with a 3-D Secure test card", () => {
  it("waits in requires_action with next_action when error_on_requires_action is not set", async () => {
    // prepare
    rig = await startRig({ dialect: "stripe" });
    const { stripe, psp } = rig;
    // act
    const intents = [];
    for (const [i, card] of THREE_D_SECURE_CARDS.entries()) {
      const params = intentParams(`pay_${i}`, { payment_method: card });
      intents.push(await stripe.paymentIntents.create(params, { idempotencyKey: `k${i}` }));
    }
    // assess
    for (const intent of intents) {
      expect(intent).toMatchObject({
        status: "requires_action",
        next_action: { type: "use_stripe_sdk" },
        latest_charge: null,
        last_payment_error: null,
        amount_received: 0,
      });
    }
    expect(psp.charges()).toEqual([]);
    expect(new Set(types(rig))).toEqual(new Set(["payment_intent.requires_action"]));
  });

  it("fails at once with authentication_required under error_on_requires_action", async () => {
    // prepare
    rig = await startRig({ dialect: "stripe" });
    const params = intentParams("pay_1", {
      payment_method: "pm_card_authenticationRequired",
      error_on_requires_action: true,
    });
    // act
    const err = await thrown(rig.stripe.paymentIntents.create(params, { idempotencyKey: "k1" }));
    // assess
    expect(err).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(err).toMatchObject({ statusCode: 402, code: "authentication_required" });
    expect(err.payment_intent).toMatchObject({
      status: "requires_payment_method",
      next_action: null,
      last_payment_error: { code: "authentication_required" },
    });
    expect(types(rig)).toEqual(["payment_intent.payment_failed"]);
  });

  it("succeeds with an ordinary card whether or not error_on_requires_action is set", async () => {
    // prepare
    rig = await startRig();
    const params = intentParams("pay_1", { error_on_requires_action: true });
    // act
    const intent = await rig.stripe.paymentIntents.create(params, { idempotencyKey: "k1" });
    // assess
    expect(intent).toMatchObject({ status: "succeeded", next_action: null });
  });
});

describe("a PaymentIntent that is processing (psp_intent_processing)", () => {
  it("answers processing, then succeeds by the PSP's clock with an event no request caused", async () => {
    // prepare
    const clock = manualClock(Date.UTC(2026, 0, 1));
    rig = await startRig({ dialect: "stripe", clock });
    const { stripe, psp, faults } = rig;
    faults.arm("psp_intent_processing", 10_000);
    const intent = await stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    // act
    clock.advance(10_000);
    const settled = psp.settleDue();
    const read = await stripe.paymentIntents.retrieve(intent.id);
    const replay = await stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    // assess
    expect(intent.status).toBe("processing");
    expect(settled).toBe(1);
    expect(read.status).toBe("succeeded");
    expect(replay.status).toBe("processing");
    const events = psp.webhookEvents() as StripeEvent[];
    expect(events.map((e) => e.type)).toEqual(["payment_intent.processing", "payment_intent.succeeded"]);
    expect(events[1]?.request).toEqual({ id: null, idempotency_key: null });
    expect(psp.charges()).toHaveLength(1);
  });
});
