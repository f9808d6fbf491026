import { afterEach, describe, expect, it } from "vitest";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";

// The seed's lost PSP reply on a Stripe stage, end to end through the SDK: the resolver, past Stripe's 24 h key
// window, can no longer replay the derived key and must look the PaymentIntent up by our reference. Stripe's search
// is eventually consistent (up to an hour behind in an outage), so a "not found" from it proves nothing; the list by
// `created` around the attempt is read-after-write consistent, and it is what settles the payment.
const stack = useLocalStack({ pspDialect: "stripe" });
const api = () => new ApiClient(stack().apiUrl);
type Report = { settled: Array<{ payment_id: string; from: string; to: string }>; unresolved: unknown[] };
const resolverPass = async () => (await api().local("POST", "/run/resolver")).body.result as Report;
/** The PSP's succeeded intents for a payment. */
const intentsFor = (paymentId: string) =>
  stack()
    .psp.charges()
    .filter((c) => c.reference === paymentId);

/** A tap whose reply the PSP lost (the intent succeeded), then a day passes: the key the PSP kept is gone. */
async function chargedButUnknownPastTheKeyWindow() {
  stack().psp.setWebhookUrl(undefined);
  const token = await api().token("u-stripe-lag");
  await api().local("POST", "/faults", { psp_lose_reply: 1 });
  const first = await api().pay(token, newKey(), order42());
  await api().local("POST", "/clock", { advance_s: 25 * 3600 });
  // every search in this test answers empty, as an index an hour behind would
  await api().local("POST", "/faults", { psp_search_lag: 1, n: 50 });
  return { first, paymentId: String(first.body.payment_id) };
}

afterEach(async () => {
  delete process.env.EO_TEST_UNSAFE_STRIPE_SEARCH_ONLY;
  await api().local("DELETE", "/faults");
});

describe("lost PSP reply on Stripe while its search lags", () => {
  it("is settled by the resolver's first pass through the list lookup: SUCCEEDED, one PaymentIntent", async () => {
    // prepare
    const { first, paymentId } = await chargedButUnknownPastTheKeyWindow();
    // act
    const pass = await resolverPass();
    // assess
    expect(first.status).toBe(202);
    expect(pass.settled).toContainEqual({ payment_id: paymentId, from: "UNKNOWN", to: "SUCCEEDED" });
    const row = await tablesOf(stack()).payment(paymentId);
    expect(row?.state).toBe("SUCCEEDED");
    expect(String(row?.psp_charge)).toMatch(/^pi_/);
    expect(intentsFor(paymentId)).toHaveLength(1);
  });
});

describe("search alone (the guard off: EO_TEST_UNSAFE_STRIPE_SEARCH_ONLY=1)", () => {
  it("fails a payment Stripe charged once the search has lagged longer than the settle period (10 min)", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_STRIPE_SEARCH_ONLY = "1";
    const { paymentId } = await chargedButUnknownPastTheKeyWindow();
    // act: the first not-found starts the settle period; Stripe's search can lag an hour in an outage
    const first = await resolverPass();
    await api().local("POST", "/clock", { advance_s: 601 });
    const afterSettle = await resolverPass();
    // assess: FAILED in our ledger, yet the card was charged
    expect(first.unresolved).toContainEqual({ payment_id: paymentId, state: "UNKNOWN" });
    expect(afterSettle.settled).toContainEqual({ payment_id: paymentId, from: "UNKNOWN", to: "FAILED" });
    expect(intentsFor(paymentId)).toHaveLength(1);
  });
});
