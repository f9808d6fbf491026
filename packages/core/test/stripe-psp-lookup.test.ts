import { afterEach, describe, expect, it } from "vitest";
import { armFault, clearFaults } from "../src/faults/faults";
import { chargeOf, type StripeRig, sent, startStripeRig } from "./support/stripe-fake";

let rig: StripeRig | undefined;
afterEach(async () => {
  clearFaults();
  delete process.env.EO_TEST_UNSAFE_STRIPE_SEARCH_ONLY;
  await rig?.psp.stop();
  rig = undefined;
});

const CREATE = "POST /v1/payment_intents";
const HOUR_MS = 60 * 60 * 1000;

// The PSP charged and its reply was lost; search has not indexed the intent yet (the `psp_search_lag` fault).
async function lostReplyWhileSearchLags(r: StripeRig, reference: string) {
  armFault("psp_lose_reply", 1, 1);
  const reply = await r.stripe.charge(`${reference}:charge`, chargeOf(reference), 5_000);
  armFault("psp_search_lag", 1, 10);
  return reply;
}

describe("lost PSP reply (Parts 2 to 4): unknown, then found by the list while search lags", () => {
  it("the lost reply is unknown, and the SDK sent the charge once: no hidden retry of a closed connection", async () => {
    // prepare
    rig = await startStripeRig();
    // act
    const reply = await lostReplyWhileSearchLags(rig, "pay_1");
    // assess
    expect(reply.kind).toBe("unknown");
    expect(rig.psp.charges()).toHaveLength(1);
    expect(sent(rig.psp, CREATE)).toBe(1);
  });

  it("findCharge finds the charge through the consistent list although search answers nothing", async () => {
    // prepare
    rig = await startStripeRig();
    await lostReplyWhileSearchLags(rig, "pay_2");
    // act
    const found = await rig.stripe.findCharge("pay_2", 5_000, "resolver");
    // assess
    expect(found).toEqual({ kind: "done", id: rig.psp.charges()[0]?.id });
    expect(sent(rig.psp, "GET /v1/payment_intents/search")).toBe(1);
    expect(sent(rig.psp, "GET /v1/payment_intents")).toBeGreaterThanOrEqual(1);
  });

  it("guard off (EO_TEST_UNSAFE_STRIPE_SEARCH_ONLY=1): search alone answers not-found for the charged payment", async () => {
    // prepare
    rig = await startStripeRig();
    await lostReplyWhileSearchLags(rig, "pay_3");
    process.env.EO_TEST_UNSAFE_STRIPE_SEARCH_ONLY = "1";
    // act
    const found = await rig.stripe.findCharge("pay_3", 5_000, "resolver");
    // assess
    expect(found).toEqual({ kind: "not-found" });
    expect(rig.psp.charges()).toHaveLength(1);
  });

  it("an intent not yet searchable (search's index a minute behind) is found by the list at once", async () => {
    // prepare
    rig = await startStripeRig({ searchLagMs: 60_000 });
    armFault("psp_lose_reply", 1, 1);
    const lost = await rig.stripe.charge("pay_10:charge", chargeOf("pay_10"), 5_000);
    // act
    const found = await rig.stripe.findCharge("pay_10", 5_000, "resolver");
    // assess
    expect(lost.kind).toBe("unknown");
    expect(found).toEqual({ kind: "done", id: rig.psp.charges()[0]?.id });
  });

  it("lists within the attempt's window: a window that ends before the charge does not see it", async () => {
    // prepare
    rig = await startStripeRig();
    await lostReplyWhileSearchLags(rig, "pay_4");
    const now = Date.now();
    // act
    const before = await rig.stripe.findCharge("pay_4", 5_000, "live", {
      windows: [{ fromMs: now - 26 * HOUR_MS, toMs: now - 25 * HOUR_MS }],
    });
    const around = await rig.stripe.findCharge("pay_4", 5_000, "live", {
      windows: [{ fromMs: now - 5_000, toMs: now + 24 * HOUR_MS }],
    });
    // assess
    expect(before).toEqual({ kind: "not-found" });
    expect(around.kind).toBe("done");
  });

  it("reads every page: the charge behind a hundred newer intents is found, not taken for absent", async () => {
    // prepare
    rig = await startStripeRig();
    await lostReplyWhileSearchLags(rig, "pay_5");
    for (let i = 0; i < 120; i++) await rig.stripe.charge(`other_${i}:charge`, chargeOf(`other_${i}`), 5_000);
    // act
    const found = await rig.stripe.findCharge("pay_5", 10_000);
    // assess
    expect(found).toEqual({ kind: "done", id: rig.psp.charges().find((c) => c.reference === "pay_5")?.id });
    expect(sent(rig.psp, "GET /v1/payment_intents")).toBeGreaterThanOrEqual(2);
  });
});

describe("looking a charge up by our reference", () => {
  it("search is the fast path: an indexed success is answered without listing", async () => {
    // prepare
    rig = await startStripeRig();
    const charged = await rig.stripe.charge("pay_6:charge", chargeOf("pay_6"), 5_000);
    // act
    const found = await rig.stripe.findCharge("pay_6", 5_000);
    // assess
    expect(found).toEqual(charged);
    expect(sent(rig.psp, "GET /v1/payment_intents")).toBe(0);
  });

  it("a declined attempt is found as declined, with its decline code", async () => {
    // prepare
    rig = await startStripeRig();
    await rig.stripe.charge("pay_7:charge", chargeOf("pay_7", "pm_card_declined"), 5_000);
    // act
    const found = await rig.stripe.findCharge("pay_7", 5_000);
    // assess
    expect(found).toMatchObject({ kind: "declined", declineCode: "generic_decline" });
  });

  it("answers not-found, never a decline, when nothing carries the reference", async () => {
    // prepare
    rig = await startStripeRig();
    await rig.stripe.charge("pay_8:charge", chargeOf("pay_8"), 5_000);
    // act
    const found = await rig.stripe.findCharge("nothing-here", 5_000);
    // assess
    expect(found).toEqual({ kind: "not-found" });
  });

  it("a lookup that cannot finish in its time is unknown, never not-found", async () => {
    // prepare
    rig = await startStripeRig();
    armFault("psp_lookup_delay_ms", 1_000, 10);
    // act
    const found = await rig.stripe.findCharge("pay_9", 300);
    // assess
    expect(found.kind).toBe("unknown");
  });
});
