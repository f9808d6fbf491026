import { afterEach, describe, expect, it } from "vitest";
import { armFault, clearFaults } from "../src/faults/faults";
import { PSP_BODY_VERSION } from "../src/psp/psp-port";
import { createBodyOf } from "../src/psp/stripe-bodies";
import { chargeOf, type StripeRig, sent, startStripeRig } from "./support/stripe-fake";

let rig: StripeRig | undefined;
afterEach(async () => {
  delete process.env.EO_TEST_UNSAFE_NEWEST_PSP_BODY;
  clearFaults();
  await rig?.psp.stop();
  rig = undefined;
});

const CREATE = "POST /v1/payment_intents";

describe("the charge: one PaymentIntent per derived key (Part 2)", () => {
  it("creates and confirms a PaymentIntent under the key, our payment id in its metadata", async () => {
    // prepare
    rig = await startStripeRig();
    // act
    const reply = await rig.stripe.charge("pay_1:charge", chargeOf("pay_1"), 5_000);
    // assess
    const [charge] = rig.psp.charges();
    expect(reply).toEqual({ kind: "done", id: charge?.id });
    expect(charge?.id).toMatch(/^pi_/);
    expect(charge).toMatchObject({ reference: "pay_1", idempotency_key: "pay_1:charge", amount: 3000 });
  });

  it("a replay of the key answers the same intent and charges nothing more", async () => {
    // prepare
    rig = await startStripeRig();
    const first = await rig.stripe.charge("pay_1:charge", chargeOf("pay_1"), 5_000);
    // act
    const replay = await rig.stripe.charge("pay_1:charge", chargeOf("pay_1"), 5_000, "resolver");
    // assess
    expect(replay).toEqual(first);
    expect(rig.psp.charges()).toHaveLength(1);
    expect(rig.psp.stats().by_origin).toMatchObject({ live: 1, resolver: 1 });
  });
});

describe("a decline is an answer (Part 1: three outcomes)", () => {
  it("a declined card is declined with Stripe's decline_code and the intent's id", async () => {
    // prepare
    rig = await startStripeRig();
    // act
    const reply = await rig.stripe.charge("pay_2:charge", chargeOf("pay_2", "pm_card_declined"), 5_000);
    // assess
    expect(reply).toMatchObject({ kind: "declined", declineCode: "generic_decline" });
    expect(reply.kind === "declined" ? reply.id : "").toMatch(/^pi_/);
  });
});

describe("the PSP's rate limit (Part 12): a 429 ran nothing", () => {
  it("answers rate-limited by the PSP with Retry-After's wait; nothing is charged, and the key then runs once", async () => {
    // prepare
    rig = await startStripeRig();
    armFault("psp_rate_limit", 1, 1);
    // act
    const limited = await rig.stripe.charge("pay_3:charge", chargeOf("pay_3"), 5_000);
    const chargedWhenLimited = rig.psp.charges().length;
    const again = await rig.stripe.charge("pay_3:charge", chargeOf("pay_3"), 5_000);
    // assess
    expect(limited).toEqual({ kind: "rate-limited", retryAfterMs: 1_000, by: "psp" });
    expect(chargedWhenLimited).toBe(0);
    expect(again.kind).toBe("done");
    expect(rig.psp.charges()).toHaveLength(1);
  });
});

describe("a saved error keeps coming back for that key (Part 1: downstream windows)", () => {
  it("a fresh 5xx is unknown; its replay under the same key is the saved error, to be looked up", async () => {
    // prepare
    rig = await startStripeRig();
    armFault("psp_fail", 500, 1);
    // act
    const fresh = await rig.stripe.charge("pay_4:charge", chargeOf("pay_4"), 5_000);
    const replay = await rig.stripe.charge("pay_4:charge", chargeOf("pay_4"), 5_000);
    // assess
    expect(fresh.kind).toBe("unknown");
    expect(replay).toEqual({ kind: "saved-error", status: 500 });
    expect(rig.psp.charges()).toHaveLength(0);
  });

  it("an invalid request is a definite saved error: the domain looks the charge up, and settles at once if none", async () => {
    // prepare
    rig = await startStripeRig();
    // act
    const reply = await rig.stripe.charge("pay_5:charge", { ...chargeOf("pay_5"), amount: -1 }, 5_000);
    // assess
    expect(reply).toEqual({ kind: "saved-error", status: 400, definite: true, code: "amount_too_small" });
  });
});

describe("the deadline (Part 4): a call gets what is left of it", () => {
  it("a PSP slower than the time handed over answers unknown at that time; the charge may still run", async () => {
    // prepare
    rig = await startStripeRig();
    armFault("psp_delay_ms", 600, 1);
    // act
    const started = Date.now();
    const reply = await rig.stripe.charge("pay_6:charge", chargeOf("pay_6"), 150);
    const tookMs = Date.now() - started;
    // assess
    expect(reply.kind).toBe("unknown");
    expect(tookMs).toBeLessThan(500);
    await expect.poll(() => rig?.psp.charges().length, { timeout: 3_000 }).toBe(1);
  });

  it("with no time left, nothing is sent and the answer is unknown", async () => {
    // prepare
    rig = await startStripeRig();
    // act
    const reply = await rig.stripe.charge("pay_7:charge", chargeOf("pay_7"), 0);
    // assess
    expect(reply).toEqual({ kind: "unknown", reason: "no time left before the deadline" });
    expect(rig.psp.requests()).toBe(0);
  });
});

describe("a concurrent duplicate (Part 3)", () => {
  it("a copy sent while the first is still running at the PSP is unknown, not a saved error", async () => {
    // prepare
    rig = await startStripeRig();
    armFault("psp_delay_ms", 400, 1);
    const first = rig.stripe.charge("pay_8:charge", chargeOf("pay_8"), 5_000);
    await expect.poll(() => rig?.psp.stats().held, { timeout: 2_000, interval: 5 }).toBe(1);
    // act
    const copy = await rig.stripe.charge("pay_8:charge", chargeOf("pay_8"), 5_000);
    // assess
    expect(copy.kind).toBe("unknown");
    expect((await first).kind).toBe("done");
    expect(rig.psp.charges()).toHaveLength(1);
  });
});

describe("a key with other parameters (side trace 3d)", () => {
  it("is a saved error to look up by our reference (Stripe's idempotency_error), never a throw that stops a pass", async () => {
    // prepare
    rig = await startStripeRig();
    await rig.stripe.charge("pay_9:charge", chargeOf("pay_9"), 5_000);
    // act
    const misuse = await rig.stripe.charge("pay_9:charge", { ...chargeOf("pay_9"), amount: 3500 }, 5_000);
    // assess
    expect(misuse).toEqual({ kind: "saved-error", status: 400, code: "idempotency_error" });
    expect(rig.psp.charges()).toHaveLength(1);
    expect(sent(rig.psp, CREATE)).toBe(2);
  });
});

describe("a deploy that changes the create body (body versions, issue 39)", () => {
  it("a payment first sent at version 1 replays the version-1 body after the code moved on: the same intent", async () => {
    // prepare: a payment of the version before error_on_requires_action
    rig = await startStripeRig();
    const v1 = { ...chargeOf("pay_10"), bodyVersion: 1 };
    const first = await rig.stripe.charge("pay_10:charge", v1, 5_000);
    // act: the resolver replays it under code whose new payments are stamped with a later version
    const replay = await rig.stripe.charge("pay_10:charge", v1, 5_000, "resolver");
    // assess
    expect(PSP_BODY_VERSION).toBeGreaterThan(1);
    expect(replay).toEqual(first);
    expect(replay.kind).toBe("done");
    expect(rig.psp.charges()).toHaveLength(1);
  });

  it("new payments ask Stripe to fail a card that needs authentication rather than leave the intent open", () => {
    // act
    const v1 = createBodyOf({ ...chargeOf("pay_11"), bodyVersion: 1 });
    const current = createBodyOf({ ...chargeOf("pay_11"), bodyVersion: PSP_BODY_VERSION });
    // assess
    expect(v1).not.toHaveProperty("error_on_requires_action");
    expect(current).toMatchObject({ error_on_requires_action: true, confirm: true });
  });

  it("always the newest body (EO_TEST_UNSAFE_NEWEST_PSP_BODY=1): the replay is another request under the key, idempotency_error", async () => {
    // prepare
    rig = await startStripeRig();
    const v1 = { ...chargeOf("pay_12"), bodyVersion: 1 };
    await rig.stripe.charge("pay_12:charge", v1, 5_000);
    // act
    process.env.EO_TEST_UNSAFE_NEWEST_PSP_BODY = "1";
    const replay = await rig.stripe.charge("pay_12:charge", v1, 5_000, "resolver");
    // assess
    expect(replay).toEqual({ kind: "saved-error", status: 400, code: "idempotency_error" });
  });
});
