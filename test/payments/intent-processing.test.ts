import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";

// A PaymentIntent Stripe accepted and had not finished (`processing`, issue 39 item 4). Run in Stripe's dialect only
// (vitest.config.ts, STRIPE_ONLY): the generic PSP answers every charge final at once.
if (process.env.PSP !== "stripe") throw new Error("intent-processing runs in Stripe's dialect: PSP=stripe");

const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);
const requestsTo = (endpoint: string) => stack().psp.stats().by_endpoint[endpoint] ?? 0;

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_REPLAY_OPEN_CHARGE;
  stack().psp.setWebhookUrl(`${stack().apiUrl}${stack().webhookPath}`);
});

/** A tap whose PaymentIntent Stripe keeps `processing` for a minute of its clock, with no events to tell us. */
async function processingTap() {
  stack().psp.setWebhookUrl(undefined);
  const caller = `u-${randomUUID().slice(0, 8)}`;
  const token = await api().token(caller);
  await api().local("POST", "/faults", { psp_intent_processing: 60_000 });
  const first = await api().pay(token, newKey(), order42());
  const paymentId = String(first.body.payment_id);
  return { first, paymentId, token };
}

/** The minute passes (Stripe succeeds the intent by its clock), then one resolver pass. */
async function aMinuteThenTheResolver() {
  const posts = requestsTo("POST /v1/payment_intents");
  const reads = requestsTo("GET /v1/payment_intents/{id}");
  await api().local("POST", "/clock", { advance_s: 120 });
  stack().psp.settleDue();
  const pass = (await api().local("POST", "/run/resolver")).body.result as {
    settled: unknown[];
    unresolved: unknown[];
  };
  return {
    pass,
    posts: requestsTo("POST /v1/payment_intents") - posts,
    reads: requestsTo("GET /v1/payment_intents/{id}") - reads,
  };
}

describe("a PaymentIntent Stripe holds processing", () => {
  it("answers 202 PROCESSING, keeps the intent's id, and settles SUCCEEDED by reading it by id, not by a replayed POST", async () => {
    // prepare
    const { first, paymentId, token } = await processingTap();
    const row = await tablesOf(stack()).payment(paymentId);
    // act
    const { pass, posts, reads } = await aMinuteThenTheResolver();
    const view = await api().get(token, paymentId);
    // assess
    expect([first.status, first.body.state]).toEqual([202, "PROCESSING"]);
    expect(row?.state).toBe("UNKNOWN");
    expect(row?.psp_charge_open).toMatch(/^pi_/);
    expect(pass.settled).toContainEqual({ payment_id: paymentId, from: "UNKNOWN", to: "SUCCEEDED" });
    expect([posts, reads]).toEqual([0, 1]);
    expect([view.body.state, (await tablesOf(stack()).payment(paymentId))?.psp_charge]).toEqual([
      "SUCCEEDED",
      row?.psp_charge_open,
    ]);
  });

  it("with the POST replayed instead (guard off), stays PROCESSING after Stripe charged: the saved body says processing", async () => {
    // prepare
    const { paymentId, token } = await processingTap();
    process.env.EO_TEST_UNSAFE_REPLAY_OPEN_CHARGE = "1";
    // act
    const { pass, posts } = await aMinuteThenTheResolver();
    const view = await api().get(token, paymentId);
    const atStripe = stack()
      .psp.charges()
      .filter((c) => c.reference === paymentId);
    // assess: the seed's failure, a charged payment the buyer is told is still processing
    expect(posts).toBe(1);
    expect(pass.unresolved).toContainEqual({ payment_id: paymentId, state: "UNKNOWN" });
    expect(view.body.state).toBe("PROCESSING");
    expect(atStripe).toHaveLength(1);
  });
});
