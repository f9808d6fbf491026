import Stripe from "stripe";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  STRIPE_LIVE_WEBHOOK_RETRY,
  STRIPE_SANDBOX_WEBHOOK_RETRY,
  type StripeEvent,
  type WebhookRetry,
} from "../src/index";
import { resolveOptions } from "../src/options";
import { call } from "./http-client";
import { intentParams, SECRET_KEY, type StripeRig, startRig, thrown } from "./stripe-harness";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver";

let rig: StripeRig | undefined;
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  await rig?.psp.stop();
  await receiver?.stop();
  rig = undefined;
  receiver = undefined;
});

describe("a request Stripe refuses before anything runs", () => {
  it("names an unknown parameter with parameter_unknown, and saves nothing under the key", async () => {
    // prepare
    rig = await startRig();
    const { psp, stripe } = rig;
    const form = {
      amount: "3000",
      currency: "usd",
      payment_method: "pm_card_visa",
      confirm: "true",
      colour: "blue",
    };
    // act
    const err = await call<{ error: { code: string; param: string; message: string } }>(
      psp.url,
      "POST",
      "/v1/payment_intents",
      { key: "k1", form, account: SECRET_KEY },
    );
    const refund = await thrown(stripe.refunds.create({ payment_intent: "pi_x", colour: "blue" } as never));
    const after = await stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    // assess
    expect(err.status).toBe(400);
    expect(err.body.error).toMatchObject({
      code: "parameter_unknown",
      param: "colour",
      message: "Received unknown parameter: colour",
    });
    expect(refund).toMatchObject({ statusCode: 400, code: "parameter_unknown", param: "colour" });
    expect(after.lastResponse.headers["idempotent-replayed"]).toBeUndefined();
    expect(psp.charges()).toHaveLength(1);
  });

  it("refuses an amount under the currency's minimum with amount_too_small", async () => {
    // prepare
    rig = await startRig();
    const { psp, stripe } = rig;
    // act
    const usd = await thrown(stripe.paymentIntents.create(intentParams("pay_1", { amount: 49 })));
    const gbp = await stripe.paymentIntents.create(intentParams("pay_2", { amount: 30, currency: "gbp" }));
    const jpy = await thrown(
      stripe.paymentIntents.create(intentParams("pay_3", { amount: 1, currency: "jpy" })),
    );
    // assess
    expect(usd).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(usd).toMatchObject({ statusCode: 400, code: "amount_too_small", param: "amount" });
    expect(usd.message).toContain("Amount must be at least 0.50 usd");
    expect(gbp.status).toBe("succeeded");
    expect(jpy.code).toBe("amount_too_small");
    expect(jpy.message).toContain("Amount must be at least 50 jpy");
    expect(psp.charges()).toHaveLength(1);
  });
});

describe("a PaymentMethod used once without a customer", () => {
  it("cannot be used again, while a test shortcut makes a new one each time", async () => {
    // prepare
    rig = await startRig();
    const { psp, stripe } = rig;
    const first = await stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    const second = await stripe.paymentIntents.create(intentParams("pay_2"), { idempotencyKey: "k2" });
    const used = first.payment_method as string;
    // act
    const err = await thrown(
      stripe.paymentIntents.create(intentParams("pay_3", { payment_method: used }), { idempotencyKey: "k3" }),
    );
    const withCustomer = await stripe.paymentIntents.create(
      intentParams("pay_4", { payment_method: used, customer: "cus_1" }),
      { idempotencyKey: "k4" },
    );
    // assess
    expect(second.payment_method).not.toBe(used);
    expect(err).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(err).toMatchObject({ statusCode: 400, param: "payment_method" });
    expect(err.message).toContain("It may not be used again");
    expect(withCustomer.status).toBe("succeeded");
    expect(psp.charges().map((c) => c.reference)).toEqual(["pay_1", "pay_2", "pay_4"]);
  });
});

describe("webhooks in a Stripe sandbox", () => {
  it("are tried a sandbox's few times by default, then given up", async () => {
    // prepare
    const fast: WebhookRetry = { ...STRIPE_SANDBOX_WEBHOOK_RETRY, baseMs: 10, maxMs: 40 };
    receiver = await startWebhookReceiver(Array(10).fill(500));
    rig = await startRig({ dialect: "stripe", webhookUrl: receiver.url, webhookRetry: fast });
    // act
    await rig.stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    await vi.waitFor(() => expect(rig?.psp.webhooksPending()).toBe(0), { timeout: 3000, interval: 10 });
    // assess
    expect(resolveOptions({ webhookSecret: "s", dialect: "stripe" }).webhookRetry).toEqual(
      STRIPE_SANDBOX_WEBHOOK_RETRY,
    );
    expect(STRIPE_SANDBOX_WEBHOOK_RETRY.maxAttempts).toBe(4);
    expect(STRIPE_LIVE_WEBHOOK_RETRY.maxAttempts).toBeGreaterThan(4);
    expect(rig.psp.webhookDeliveries().map((d) => d.attempt)).toEqual([1, 2, 3, 4]);
  });

  it("name no request for a refund made in the Dashboard", async () => {
    // prepare
    rig = await startRig({ dialect: "stripe" });
    const intent = await rig.stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    // act
    const refundId = rig.psp.dashboardRefund(intent.id);
    // assess
    const events = rig.psp.webhookEvents() as StripeEvent[];
    expect(events.map((e) => e.type)).toEqual(["payment_intent.succeeded", "charge.refunded"]);
    expect(events[0]?.request.idempotency_key).toBe("k1");
    expect(events[1]?.request).toEqual({ id: null, idempotency_key: null });
    expect((await rig.stripe.refunds.retrieve(refundId)).status).toBe("succeeded");
  });
});
