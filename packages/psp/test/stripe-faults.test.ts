import Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";
import { intentParams, type StripeRig, startRig, stripeFor, thrown } from "./stripe-harness";

let rig: StripeRig | undefined;

afterEach(async () => {
  await rig?.psp.stop();
  rig = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the existing faults on Stripe's routes", () => {
  it("an outage answers the first POST 503 (no Should-Retry, unsaved) and cuts the reply of the second", async () => {
    // prepare
    rig = await startRig();
    const { psp, stripe, faults } = rig;
    faults.arm("psp_outage_ms", 1000);
    // act
    const refused = await thrown(
      stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" }),
    );
    const chargedAfterRefusal = psp.charges().length;
    const dropped = await thrown(
      stripe.paymentIntents.create(intentParams("pay_2"), { idempotencyKey: "k2" }),
    );
    const listDuring = await thrown(stripe.paymentIntents.list());
    await sleep(1100);
    const after = await stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    // assess
    expect(refused).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(refused).toMatchObject({ statusCode: 503 });
    expect(refused.headers?.["stripe-should-retry"]).toBeUndefined();
    expect(chargedAfterRefusal).toBe(0);
    expect(dropped).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    expect(listDuring).toMatchObject({ statusCode: 503 });
    expect(after.lastResponse.headers["idempotent-replayed"]).toBeUndefined();
    expect(
      psp
        .charges()
        .map((c) => c.reference)
        .sort(),
    ).toEqual(["pay_1", "pay_2"]);
  });

  it("psp_lose_reply_rate at 1 cuts every reply of a run, and the intents exist", async () => {
    // prepare
    rig = await startRig();
    const { psp, stripe, faults } = rig;
    faults.arm("psp_lose_reply_rate", 1, 2);
    // act
    const errors = [
      await thrown(stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" })),
      await thrown(stripe.paymentIntents.create(intentParams("pay_2"), { idempotencyKey: "k2" })),
    ];
    // assess
    for (const err of errors) expect(err).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    expect(psp.charges()).toHaveLength(2);
    expect(psp.stats().replies_dropped).toBe(2);
  });

  it("latency (psp_latency_p50_ms) delays the answer; the SDK's timeout then gives a connection error", async () => {
    // prepare
    rig = await startRig();
    const { psp, faults } = rig;
    faults.arm("psp_latency_p50_ms", 300);
    const impatient = stripeFor(psp, { timeout: 100 });
    // act
    const err = await thrown(impatient.paymentIntents.list());
    // assess
    expect(err).toBeInstanceOf(Stripe.errors.StripeConnectionError);
  });

  it("psp_lookup_delay_ms holds a list back", async () => {
    // prepare
    rig = await startRig();
    const { stripe, faults } = rig;
    faults.arm("psp_lookup_delay_ms", 200);
    const started = Date.now();
    // act
    await stripe.paymentIntents.list();
    // assess
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });
});

describe("stats and views across dialects", () => {
  it("counts Stripe's endpoints with ids folded, and the origin named in the SDK's appInfo", async () => {
    // prepare
    rig = await startRig();
    const { psp } = rig;
    const live = stripeFor(psp, { appInfo: { name: "effectively-once", url: "live" } });
    // act
    const intent = await live.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    await live.paymentIntents.retrieve(intent.id);
    await live.paymentIntents.search({ query: "metadata['payment_id']:'pay_1'" });
    // assess
    const stats = psp.stats();
    expect(stats.by_endpoint).toMatchObject({
      "POST /v1/payment_intents": 1,
      "GET /v1/payment_intents/{id}": 1,
      "GET /v1/payment_intents/search": 1,
    });
    expect(stats.by_origin.live).toBe(3);
  });
});
