import Stripe from "stripe";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { StripeEvent, WebhookRetry } from "../src/index";
import { intentParams, type StripeRig, startRig, WEBHOOK_SECRET } from "./stripe-harness";
import { pause, startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver";

const FAST_RETRY: WebhookRetry = { baseMs: 20, maxMs: 200, maxAttempts: 10 };
const TOLERANCE_S = 300;
let rig: StripeRig | undefined;
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  await rig?.psp.stop();
  await receiver?.stop();
  rig = undefined;
  receiver = undefined;
});

async function setup(statuses: number[] = []) {
  receiver = await startWebhookReceiver(statuses);
  rig = await startRig({ dialect: "stripe", webhookUrl: receiver.url, webhookRetry: FAST_RETRY });
  return { ...rig, receiver };
}

/** Every delivery checked by the SDK, as the webhook handler will check it. */
function verified(stripe: Stripe, r: WebhookReceiver, secret = WEBHOOK_SECRET): Stripe.Event[] {
  return r.received.map((w) =>
    stripe.webhooks.constructEvent(w.rawBody, w.headers["stripe-signature"] as string, secret, TOLERANCE_S),
  );
}

describe("webhooks in Stripe's dialect", () => {
  it("announce a charge as payment_intent.succeeded, signed so that constructEvent accepts it", async () => {
    // prepare
    const { stripe, receiver } = await setup();
    // act
    const intent = await stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 3000, interval: 10 });
    // assess
    const [event] = verified(stripe, receiver);
    expect(event).toMatchObject({
      object: "event",
      type: "payment_intent.succeeded",
      api_version: Stripe.API_VERSION,
      livemode: false,
      pending_webhooks: 1,
      request: { id: intent.lastResponse.requestId, idempotency_key: "k1" },
      data: { object: { id: intent.id, object: "payment_intent", metadata: { payment_id: "pay_1" } } },
    });
    expect(event?.id).toMatch(/^evt_/);
    expect(receiver.received[0]?.headers["psp-signature"]).toBeUndefined();
  });

  it("announce a decline as payment_intent.payment_failed with last_payment_error", async () => {
    // prepare
    const { stripe, receiver } = await setup();
    // act
    const params = intentParams("pay_1", { payment_method: "pm_card_declined" });
    await stripe.paymentIntents.create(params, { idempotencyKey: "k1" }).catch(() => undefined);
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 3000, interval: 10 });
    // assess
    const [event] = verified(stripe, receiver);
    expect(event?.type).toBe("payment_intent.payment_failed");
    const intent = event?.data.object as Stripe.PaymentIntent;
    expect(intent.status).toBe("requires_payment_method");
    expect(intent.metadata).toEqual({ payment_id: "pay_1" });
    expect(intent.last_payment_error).toMatchObject({
      code: "card_declined",
      decline_code: "generic_decline",
    });
  });

  it("announce a refund as charge.refunded, the charge naming its intent and our reference", async () => {
    // prepare
    const { stripe, receiver } = await setup();
    const intent = await stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    // act
    await stripe.refunds.create({ payment_intent: intent.id }, { idempotencyKey: "r1" });
    await vi.waitFor(() => expect(receiver.received).toHaveLength(2), { timeout: 3000, interval: 10 });
    // assess
    const refunded = verified(stripe, receiver).find((e) => e.type === "charge.refunded");
    expect(refunded?.data.object).toMatchObject({
      object: "charge",
      id: intent.latest_charge,
      payment_intent: intent.id,
      refunded: true,
      metadata: { payment_id: "pay_1" },
    });
    expect(refunded?.request).toEqual({ id: expect.stringMatching(/^req_/), idempotency_key: "r1" });
  });

  it("are refused by constructEvent under another secret", async () => {
    // prepare
    const { stripe, receiver } = await setup();
    // act
    await stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 3000, interval: 10 });
    // assess
    expect(() => verified(stripe, receiver, "whsec_another")).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });

  it("are retried until acknowledged with the same bytes, and redelivered by reference on demand", async () => {
    // prepare
    const { psp, stripe, receiver } = await setup([500, 500]);
    await stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    await stripe.paymentIntents.create(intentParams("pay_2"), { idempotencyKey: "k2" });
    await vi.waitFor(() => expect(psp.webhooksPending()).toBe(0), { timeout: 3000, interval: 10 });
    const delivered = receiver.received.length;
    // act
    const again = psp.redeliverWebhooks("pay_1");
    await vi.waitFor(() => expect(receiver.received).toHaveLength(delivered + 1), {
      timeout: 3000,
      interval: 10,
    });
    await pause(50);
    // assess
    const events = verified(stripe, receiver);
    const ofPay1 = (e: Stripe.Event) =>
      (e.data.object as Stripe.PaymentIntent).metadata.payment_id === "pay_1";
    const bodies = receiver.received
      .filter((_, i) => ofPay1(events[i] as Stripe.Event))
      .map((w) => w.rawBody);
    expect(delivered).toBe(4);
    expect(again).toBe(1);
    expect(ofPay1(events.at(-1) as Stripe.Event)).toBe(true);
    expect(new Set(bodies).size).toBe(1);
    expect((psp.webhookEvents() as StripeEvent[]).map((e) => e.type)).toEqual([
      "payment_intent.succeeded",
      "payment_intent.succeeded",
    ]);
  });

  it("are delivered twice under psp_webhook_twice, the same event each time", async () => {
    // prepare
    const { stripe, receiver, faults } = await setup();
    faults.arm("psp_webhook_twice", 1);
    // act
    await stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    await vi.waitFor(() => expect(receiver.received).toHaveLength(2), { timeout: 3000, interval: 10 });
    // assess
    const events = verified(stripe, receiver);
    expect(new Set(events.map((e) => e.id)).size).toBe(1);
    expect(events.map((e) => e.type)).toEqual(["payment_intent.succeeded", "payment_intent.succeeded"]);
  });

  it("go out in the generic format with Psp-Signature when the instance is generic", async () => {
    // prepare
    receiver = await startWebhookReceiver();
    rig = await startRig({ webhookUrl: receiver.url, webhookRetry: FAST_RETRY });
    const { stripe } = rig;
    // act
    await stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    await vi.waitFor(() => expect(receiver?.received).toHaveLength(1), { timeout: 3000, interval: 10 });
    // assess
    const [delivery] = receiver.received;
    expect(delivery?.headers["psp-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(JSON.parse(delivery?.rawBody ?? "{}")).toMatchObject({
      type: "charge.succeeded",
      data: { charge: { reference: "pay_1", idempotency_key: "k1" } },
    });
  });
});
