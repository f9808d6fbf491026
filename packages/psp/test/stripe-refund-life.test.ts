import { manualClock } from "@eo/core";
import type Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";
import type { StripeEvent } from "../src/index";
import { intentParams, type StripeRig, startRig, thrown } from "./stripe-harness";

let rig: StripeRig | undefined;

afterEach(async () => {
  await rig?.psp.stop();
  rig = undefined;
});

const START = Date.UTC(2026, 0, 1);

async function refundOf(r: StripeRig, paymentMethod = "pm_card_visa") {
  const params = intentParams("pay_1", { payment_method: paymentMethod });
  const intent = await r.stripe.paymentIntents.create(params, { idempotencyKey: "c1" });
  const refund = await r.stripe.refunds.create(
    { payment_intent: intent.id, metadata: { payment_id: "pay_1" } },
    { idempotencyKey: "r1" },
  );
  return { intent, refund };
}

function eventsAfterRefund(r: StripeRig): StripeEvent[] {
  const events = r.psp.webhookEvents() as StripeEvent[];
  return events.slice(events.findIndex((e) => e.type === "charge.refunded") + 1);
}

describe("a refund Stripe holds pending while the balance cannot cover it", () => {
  it("is created pending for insufficient_funds and succeeds once the balance is topped up", async () => {
    // prepare
    rig = await startRig({ dialect: "stripe" });
    rig.faults.arm("psp_refund_pending", 0);
    const { refund } = await refundOf(rig);
    const waiting = await rig.stripe.refunds.retrieve(refund.id);
    // act
    const toppedUp = rig.psp.topUpBalance();
    const after = await rig.stripe.refunds.retrieve(refund.id);
    // assess
    expect(refund).toMatchObject({ status: "pending", pending_reason: "insufficient_funds" });
    expect(waiting.status).toBe("pending");
    expect(toppedUp).toBe(1);
    expect(after).toMatchObject({ status: "succeeded", pending_reason: null, failure_reason: null });
    const events = eventsAfterRefund(rig);
    expect(events.map((e) => e.type)).toEqual(["refund.updated", "charge.refund.updated"]);
    expect(events[0]).toMatchObject({
      request: { id: null, idempotency_key: null },
      data: {
        object: { id: refund.id, object: "refund", status: "succeeded", metadata: { payment_id: "pay_1" } },
        previous_attributes: { status: "pending", pending_reason: "insufficient_funds" },
      },
    });
  });

  it("succeeds by itself when the fault's ms have passed by the PSP's clock", async () => {
    // prepare
    const clock = manualClock(START);
    rig = await startRig({ dialect: "stripe", clock });
    rig.faults.arm("psp_refund_pending", 60_000);
    const { refund } = await refundOf(rig);
    // act
    clock.advance(59_000);
    const early = await rig.stripe.refunds.retrieve(refund.id);
    clock.advance(1_000);
    const late = await rig.stripe.refunds.retrieve(refund.id);
    // assess
    expect(early.status).toBe("pending");
    expect(late.status).toBe("succeeded");
  });

  it("fails on demand, giving the charge its amount back so that a later refund can be made", async () => {
    // prepare
    rig = await startRig({ dialect: "stripe" });
    rig.faults.arm("psp_refund_pending", 0);
    const { intent, refund } = await refundOf(rig);
    // act
    rig.psp.failRefund(refund.id, "declined");
    const failed = await rig.stripe.refunds.retrieve(refund.id);
    const charge = await rig.stripe.charges.retrieve(intent.latest_charge as string);
    const next = await rig.stripe.refunds.create({ payment_intent: intent.id }, { idempotencyKey: "r2" });
    // assess
    expect(failed).toMatchObject({ status: "failed", failure_reason: "declined", pending_reason: null });
    expect(charge).toMatchObject({ object: "charge", refunded: false, amount_refunded: 0 });
    expect(next.status).toBe("succeeded");
    expect(eventsAfterRefund(rig).map((e) => e.type)).toEqual([
      "refund.updated",
      "refund.failed",
      "charge.refund.updated",
      "charge.refunded",
    ]);
  });
});

describe("a refund Stripe fails after it succeeded (test card pm_card_refundFail)", () => {
  it("is created succeeded and fails with expired_or_canceled_card once the delay has passed", async () => {
    // prepare
    const clock = manualClock(START);
    rig = await startRig({ dialect: "stripe", clock, refundFailDelayMs: 30_000 });
    const { intent, refund } = await refundOf(rig, "pm_card_refundFail");
    // act
    clock.advance(30_000);
    const changed = rig.psp.settleDue();
    const read = await rig.stripe.refunds.retrieve(refund.id);
    const replay = await rig.stripe.refunds.create(
      { payment_intent: intent.id, metadata: { payment_id: "pay_1" } },
      { idempotencyKey: "r1" },
    );
    // assess
    expect(intent.status).toBe("succeeded");
    expect(refund.status).toBe("succeeded");
    expect(changed).toBe(1);
    expect(read).toMatchObject({ status: "failed", failure_reason: "expired_or_canceled_card" });
    // A replay shows the body saved at creation, never the later status, as Stripe's does.
    expect(replay).toMatchObject({ id: refund.id, status: "succeeded", failure_reason: null });
    expect(replay.lastResponse.headers["idempotent-replayed"]).toBe("true");
    const events = eventsAfterRefund(rig);
    expect(events.map((e) => e.type)).toEqual(["refund.updated", "refund.failed", "charge.refund.updated"]);
    for (const event of events) {
      expect(event.request).toEqual({ id: null, idempotency_key: null });
      expect(event.data.previous_attributes).toEqual({ status: "succeeded" });
      expect(event.data.object).toMatchObject({ id: refund.id, status: "failed", payment_intent: intent.id });
    }
  });

  it("fails by the PSP's own poll when the clock moves, with no request to the PSP", async () => {
    // prepare
    const clock = manualClock(START);
    rig = await startRig({ dialect: "stripe", clock });
    const { refund } = await refundOf(rig, "pm_card_refundFail");
    // act
    clock.advance(2_000);
    await new Promise((r) => setTimeout(r, 150));
    // assess
    const types = eventsAfterRefund(rig).map((e) => e.type);
    expect(types).toContain("refund.failed");
    expect((await rig.stripe.refunds.retrieve(refund.id)).status).toBe("failed");
  });
});

describe("objects read by id in Stripe's dialect", () => {
  it("reads a PaymentIntent's Charge by id, and answers resource_missing for an unknown refund", async () => {
    // prepare
    rig = await startRig();
    const { intent } = await refundOf(rig);
    // act
    const charge: Stripe.Charge = await rig.stripe.charges.retrieve(intent.latest_charge as string);
    const err = await thrown(rig.stripe.refunds.retrieve("re_nope"));
    // assess
    expect(charge).toMatchObject({
      id: intent.latest_charge,
      object: "charge",
      payment_intent: intent.id,
      refunded: true,
      amount_refunded: 3000,
    });
    expect(err).toMatchObject({ statusCode: 404, code: "resource_missing" });
  });
});
