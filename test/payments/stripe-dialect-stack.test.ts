import { paymentIdOf, stripeEndpointOf, stripePspCharges } from "@eo/core";
import Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";
import { localSecrets } from "../../packages/local/src/stack/handler-env";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";
import { eventually } from "../support/tables";

// The whole local stack with PSP=stripe: the fake PSP speaks Stripe's dialect and sends Stripe's events, signed with
// Stripe-Signature, to /webhooks/stripe, where the SDK checks them; the handlers are configured for the Stripe adapter.
const stack = useLocalStack({ pspDialect: "stripe", webhookDelayMs: 100 });

const api = () => new ApiClient(stack().apiUrl);
/** The SDK pointed at the stack's fake PSP, as the adapter is (PSP_URL's host and port). */
const sdk = () =>
  new Stripe(localSecrets().StripeSecretKey as string, {
    ...stripeEndpointOf(stack().psp.url),
    maxNetworkRetries: 0,
  });

/** A payment whose handler died after its durable guard, before the PSP: its row is PENDING, no charge made. */
async function pendingPayment() {
  const token = await api().token("u-stripe-e2e");
  const key = newKey();
  await api().local("POST", "/faults", { crash_at: "pay.after_guard", n: 1 });
  const died = await api().pay(token, key, order42());
  return { died, paymentId: paymentIdOf("u-stripe-e2e", key) };
}

const stateOf = async (paymentId: string, want: string) =>
  eventually(
    async () => ((await tablesOf(stack()).payment(paymentId))?.state === want ? true : undefined),
    15_000,
    `payment ${paymentId} ${want}`,
  );

describe("PSP=stripe: the local stack speaks Stripe's dialect end to end", () => {
  it("starts the fake in Stripe's dialect, its webhooks aimed at /webhooks/stripe, the handlers told PSP=stripe", async () => {
    // act
    const resources = await api().local("GET", "/resources");
    // assess
    expect(stack().pspDialect).toBe("stripe");
    expect(stack().webhookPath).toBe("/webhooks/stripe");
    expect(process.env.PSP).toBe("stripe");
    expect(resources.body.psp).toEqual({ dialect: "stripe", webhookPath: "/webhooks/stripe" });
  });

  it("a PaymentIntent made with our derived key settles the PENDING payment through the fake's Stripe webhook; its refund, REFUNDED", async () => {
    // prepare: the charge our adapter would make (the derived key, our payment id in the metadata)
    const { died, paymentId } = await pendingPayment();
    const stripe = sdk();
    // act
    const intent = await stripe.paymentIntents.create(
      {
        amount: 3000,
        currency: "usd",
        payment_method: "pm_card_visa",
        confirm: true,
        metadata: { payment_id: paymentId },
      },
      { idempotencyKey: `${paymentId}:charge` },
    );
    await stateOf(paymentId, "SUCCEEDED");
    const charged = await tablesOf(stack()).payment(paymentId);
    await stripe.refunds.create(
      { payment_intent: intent.id, metadata: { payment_id: paymentId } },
      { idempotencyKey: `${paymentId}:cancel:refund` },
    );
    await stateOf(paymentId, "REFUNDED");
    // assess
    expect(died.status).toBe(500);
    expect(intent.status).toBe("succeeded");
    expect(charged?.psp_charge).toBe(intent.id);
    const sent = stack()
      .psp.webhookEvents()
      .filter((e) => JSON.stringify(e).includes(paymentId))
      .map((e) => (e as { type: string }).type);
    expect(sent).toEqual(["payment_intent.succeeded", "charge.refunded"]);
  });

  it("the reconcile's Stripe source lists the intents by creation time, every page, refunded ones marked", async () => {
    // prepare
    const since = Math.floor(Date.now() / 1000) - 3600;
    const stripe = sdk();
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const pi = await stripe.paymentIntents.create(
        {
          amount: 100 + i,
          currency: "eur",
          payment_method: "pm_card_visa",
          confirm: true,
          metadata: { payment_id: `pay_list_${i}` },
        },
        { idempotencyKey: `list-${i}-${newKey()}` },
      );
      made.push(pi.id);
    }
    await stripe.refunds.create({ payment_intent: made[0] as string });
    // act
    const listed = await stripePspCharges(stack().psp.url, localSecrets().StripeSecretKey as string, since);
    // assess
    const mine = listed.filter((c) => made.includes(c.id));
    expect(mine.map((c) => c.reference).sort()).toEqual(["pay_list_0", "pay_list_1", "pay_list_2"]);
    expect(mine.every((c) => c.currency === "EUR" && c.status === "succeeded")).toBe(true);
    expect(mine.find((c) => c.id === made[0])?.refunded).toBe(true);
    expect(mine.find((c) => c.id === made[1])?.refunded).toBe(false);
  });

  it("a payment through the API charges a PaymentIntent via the SDK, once; the cancel refunds it; Stripe's webhooks change nothing more", async () => {
    // prepare
    const token = await api().token("u-stripe-api");
    const key = newKey();
    // act
    const paid = await api().pay(token, key, order42());
    const again = await api().pay(token, key, order42());
    const paymentId = String(paid.body.payment_id);
    const cancelled = await api().cancel(token, paymentId);
    // assess
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(String(paid.body.psp_charge)).toMatch(/^pi_/);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const charges = stack()
      .psp.charges()
      .filter((c) => c.reference === paymentId);
    expect(charges.map((c) => c.id)).toEqual([paid.body.psp_charge]);
    await eventually(
      async () =>
        stack()
          .psp.webhookEvents()
          .filter((e) => JSON.stringify(e).includes(paymentId)).length >= 2 || undefined,
      15_000,
      "the fake's two Stripe events",
    );
    expect((await tablesOf(stack()).payment(paymentId))?.state).toBe("REFUNDED");
    expect(await tablesOf(stack()).journal(paymentId)).toHaveLength(4);
  });
});

describe("an amount under Stripe's minimum for its currency (issue 39)", () => {
  afterEach(() => {
    delete process.env.EO_TEST_UNSAFE_NO_PSP_MINIMUM;
  });

  it("is answered 422 with the currency's minimum in its detail, and nothing is written or sent", async () => {
    // prepare
    const token = await api().token("u-stripe-min");
    const key = newKey();
    const sentBefore = stack().psp.requestLog().length;
    // act
    const paid = await api().pay(token, key, order42({ amount: 30, currency: "USD" }));
    // assess
    expect(paid.status).toBe(422);
    expect(String(paid.body.type)).toMatch(/\/amount-below-minimum$/);
    expect(String(paid.body.detail)).toContain("USD: at least 50 minor units");
    expect(await tablesOf(stack()).payment(paymentIdOf("u-stripe-min", key))).toBeUndefined();
    expect(stack().psp.requestLog().length).toBe(sentBefore);
  });

  it("with the check off (EO_TEST_UNSAFE_NO_PSP_MINIMUM=1) the payment row is written and the charge sent", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_PSP_MINIMUM = "1";
    const token = await api().token("u-stripe-min");
    const key = newKey();
    // act
    const paid = await api().pay(token, key, order42({ amount: 30, currency: "USD" }));
    // assess
    expect(paid.status).not.toBe(422);
    expect(await tablesOf(stack()).payment(paymentIdOf("u-stripe-min", key))).toBeDefined();
  });
});
