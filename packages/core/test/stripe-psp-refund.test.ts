import { afterEach, describe, expect, it } from "vitest";
import { armFault, clearFaults } from "../src/faults/faults";
import { chargeOf, type StripeRig, startStripeRig } from "./support/stripe-fake";

let rig: StripeRig | undefined;
afterEach(async () => {
  clearFaults();
  await rig?.psp.stop();
  rig = undefined;
});

// A payment charged at the fake: the PaymentIntent's id, which a refund names.
async function charged(r: StripeRig, reference: string, paymentMethod?: string): Promise<string> {
  const reply = await r.stripe.charge(`${reference}:charge`, chargeOf(reference, paymentMethod), 5_000);
  if (reply.kind !== "done") throw new Error(`the charge of ${reference} answered ${reply.kind}`);
  return reply.id;
}

describe("when a compensation times out (Part 4): a refund under its own derived key", () => {
  it("refunds the PaymentIntent, and a replay of the key answers the same refund", async () => {
    // prepare
    rig = await startStripeRig();
    const pi = await charged(rig, "pay_1");
    // act
    const refund = await rig.stripe.refund("pay_1:cancel:refund", pi, "pay_1", 5_000);
    const replay = await rig.stripe.refund("pay_1:cancel:refund", pi, "pay_1", 5_000, "resolver");
    // assess
    expect(refund).toEqual({ kind: "done", id: rig.psp.refunds()[0]?.id });
    expect(refund.kind === "done" ? refund.id : "").toMatch(/^re_/);
    expect(replay).toEqual(refund);
    expect(rig.psp.refunds()).toHaveLength(1);
  });

  it("a refund under another key of a refunded charge is already-refunded", async () => {
    // prepare
    rig = await startStripeRig();
    const pi = await charged(rig, "pay_2");
    await rig.stripe.refund("pay_2:cancel:refund", pi, "pay_2", 5_000);
    // act
    const again = await rig.stripe.refund("pay_2:other:refund", pi, "pay_2", 5_000);
    // assess
    expect(again).toEqual({ kind: "already-refunded" });
    expect(rig.psp.refunds()).toHaveLength(1);
  });

  it("a refund the PSP refuses with a code is refused, and nothing is refunded", async () => {
    // prepare
    rig = await startStripeRig();
    const pi = await charged(rig, "pay_3");
    armFault("psp_refund_refuse", 1, 1);
    // act
    const reply = await rig.stripe.refund("pay_3:cancel:refund", pi, "pay_3", 5_000);
    // assess
    expect(reply).toMatchObject({ kind: "refused", code: "balance_insufficient" });
    expect(rig.psp.refunds()).toHaveLength(0);
  });

  it("a lost refund reply is unknown; the replay of its key answers the one refund made", async () => {
    // prepare
    rig = await startStripeRig();
    const pi = await charged(rig, "pay_4");
    armFault("psp_lose_reply", 1, 1);
    // act
    const lost = await rig.stripe.refund("pay_4:cancel:refund", pi, "pay_4", 5_000);
    const replay = await rig.stripe.refund("pay_4:cancel:refund", pi, "pay_4", 5_000, "resolver");
    // assess
    expect(lost.kind).toBe("unknown");
    expect(replay).toEqual({ kind: "done", id: rig.psp.refunds()[0]?.id });
    expect(rig.psp.refunds()).toHaveLength(1);
  });

  it("a saved 5xx of a refund is a saved error on its replay, to be looked up by the charge", async () => {
    // prepare
    rig = await startStripeRig();
    const pi = await charged(rig, "pay_5");
    armFault("psp_fail", 500, 1);
    // act
    const fresh = await rig.stripe.refund("pay_5:cancel:refund", pi, "pay_5", 5_000);
    const replay = await rig.stripe.refund("pay_5:cancel:refund", pi, "pay_5", 5_000);
    // assess
    expect(fresh.kind).toBe("unknown");
    expect(replay).toEqual({ kind: "saved-error", status: 500 });
  });

  it("a refund key sent again for another charge is a saved error to look up, never a throw", async () => {
    // prepare
    rig = await startStripeRig();
    const first = await charged(rig, "pay_6");
    const second = await charged(rig, "pay_7");
    await rig.stripe.refund("pay_6:cancel:refund", first, "pay_6", 5_000);
    // act
    const misuse = await rig.stripe.refund("pay_6:cancel:refund", second, "pay_6", 5_000);
    // assess
    expect(misuse).toEqual({ kind: "saved-error", status: 400, code: "idempotency_error" });
  });
});

describe("looking a refund up by its charge", () => {
  it("findRefund answers the refund of the PaymentIntent, and not-found before there is one", async () => {
    // prepare
    rig = await startStripeRig();
    const pi = await charged(rig, "pay_8");
    const before = await rig.stripe.findRefund(pi, 5_000);
    await rig.stripe.refund("pay_8:cancel:refund", pi, "pay_8", 5_000);
    // act
    const after = await rig.stripe.findRefund(pi, 5_000);
    // assess
    expect(before).toEqual({ kind: "not-found" });
    expect(after).toEqual({ kind: "done", id: rig.psp.refunds()[0]?.id });
  });

  it("findCharge says a charge refunded since is refunded (its latest charge is)", async () => {
    // prepare
    rig = await startStripeRig();
    const pi = await charged(rig, "pay_9");
    await rig.stripe.refund("pay_9:cancel:refund", pi, "pay_9", 5_000);
    armFault("psp_search_lag", 1, 10);
    // act
    const found = await rig.stripe.findCharge("pay_9", 5_000);
    // assess
    expect(found).toEqual({ kind: "done", id: pi, refunded: true });
  });
});

describe("a refund Stripe holds pending, or fails after it succeeded (issue 39)", () => {
  afterEach(() => {
    delete process.env.EO_TEST_UNSAFE_PENDING_REFUND_IS_DONE;
  });

  it("a pending refund is refund-pending with its id; a replayed POST still says pending, a read by id says done", async () => {
    // prepare
    rig = await startStripeRig();
    const pi = await charged(rig, "pay_10");
    armFault("psp_refund_pending", 0, 1);
    const created = await rig.stripe.refund("pay_10:cancel:refund", pi, "pay_10", 5_000);
    const id = created.kind === "refund-pending" ? created.id : "";
    const listed = await rig.stripe.findRefund(pi, 5_000);
    // act
    rig.psp.topUpBalance();
    const replay = await rig.stripe.refund("pay_10:cancel:refund", pi, "pay_10", 5_000, "resolver");
    const read = await rig.stripe.readRefund(id, 5_000, "resolver");
    // assess
    expect(created).toEqual({ kind: "refund-pending", id: expect.stringMatching(/^re_/) });
    expect(listed).toEqual({ kind: "refund-pending", id });
    expect(replay).toEqual({ kind: "refund-pending", id });
    expect(read).toEqual({ kind: "done", id });
  });

  it("with EO_TEST_UNSAFE_PENDING_REFUND_IS_DONE=1, a pending refund reads as done", async () => {
    // prepare
    rig = await startStripeRig();
    const pi = await charged(rig, "pay_11");
    armFault("psp_refund_pending", 0, 1);
    process.env.EO_TEST_UNSAFE_PENDING_REFUND_IS_DONE = "1";
    // act
    const created = await rig.stripe.refund("pay_11:cancel:refund", pi, "pay_11", 5_000);
    // assess
    expect(created.kind).toBe("done");
  });

  it("a refund that failed after it succeeded is refund-failed with Stripe's reason, read by id or listed", async () => {
    // prepare
    rig = await startStripeRig();
    const pi = await charged(rig, "pay_12", "pm_card_refundFail");
    const created = await rig.stripe.refund("pay_12:cancel:refund", pi, "pay_12", 5_000);
    const id = created.kind === "done" ? created.id : "";
    // act
    rig.psp.failRefund(id, "expired_or_canceled_card");
    const read = await rig.stripe.readRefund(id, 5_000);
    const listed = await rig.stripe.findRefund(pi, 5_000);
    // assess
    expect(created.kind).toBe("done");
    const failed = { kind: "refund-failed", id, reason: "expired_or_canceled_card" };
    expect(read).toEqual(failed);
    expect(listed).toEqual(failed);
  });
});
