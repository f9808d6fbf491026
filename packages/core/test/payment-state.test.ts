import { describe, expect, it } from "vitest";
import { chargeKeyOf, eventIdOf, paymentIdOf, refundKeyOf } from "../src/ids/derive-ids";
import { fingerprintOf } from "../src/payment/payment-request";
import { canMove, mayMove, sourcesOf } from "../src/payment/payment-state";

describe("the payment state machine", () => {
  it("allows only the design's moves", () => {
    expect(sourcesOf("SUCCEEDED").sort()).toEqual(["PENDING", "REFUND_PENDING", "REFUND_UNKNOWN", "UNKNOWN"]);
    expect(sourcesOf("UNKNOWN")).toEqual(["PENDING"]);
    expect(sourcesOf("REFUNDED").sort()).toEqual([
      "PENDING",
      "REFUND_PENDING",
      "REFUND_UNKNOWN",
      "SUCCEEDED",
      "UNKNOWN",
    ]);
    expect(canMove("SUCCEEDED", "FAILED")).toBe(false);
    expect(canMove("FAILED", "SUCCEEDED")).toBe(false);
    expect(canMove("UNKNOWN", "PENDING")).toBe(false);
    expect(canMove("REFUNDED", "SUCCEEDED")).toBe(false);
  });

  it("lets only a named refund refusal take a refund in flight back to SUCCEEDED", () => {
    // A late charge.succeeded must not undo a refund attempt; a definite refusal of that attempt may.
    expect(mayMove("REFUND_PENDING", "SUCCEEDED")).toBe(false);
    expect(mayMove("REFUND_UNKNOWN", "SUCCEEDED")).toBe(false);
    expect(mayMove("REFUND_PENDING", "SUCCEEDED", ["REFUND_PENDING", "REFUND_UNKNOWN"])).toBe(true);
    expect(mayMove("UNKNOWN", "SUCCEEDED")).toBe(true);
    expect(mayMove("UNKNOWN", "SUCCEEDED", ["REFUND_PENDING"])).toBe(false);
  });

  it("lets only a named lookup settle an open charge straight into REFUNDED", () => {
    // A refund.succeeded webhook for a charge still open here is refused (event-ahead), never applied as a skip.
    expect(mayMove("UNKNOWN", "REFUNDED")).toBe(false);
    expect(mayMove("PENDING", "REFUNDED")).toBe(false);
    expect(mayMove("UNKNOWN", "REFUNDED", sourcesOf("REFUNDED"))).toBe(true);
    expect(mayMove("SUCCEEDED", "REFUNDED")).toBe(true);
  });
});

describe("derived ids", () => {
  it("derive the payment, PSP keys and event from the scope, the same every time and opaque", () => {
    const id = paymentIdOf("u1", "K1");
    expect(id).toBe(paymentIdOf("u1", "K1"));
    expect(id).not.toBe(paymentIdOf("u2", "K1"));
    expect(id).toMatch(/^pay_[0-9a-f]{32}$/);
    expect(id).not.toContain("u1");
    expect(chargeKeyOf(id)).toBe(`${id}:charge`);
    expect(refundKeyOf(id)).toBe(`${id}:cancel:refund`);
    expect(refundKeyOf(id, 2)).toBe(`${id}:cancel:refund:2`);
    expect(eventIdOf(id, "SUCCEEDED")).toBe(`${id}:SUCCEEDED`);
  });

  it("fingerprint the meaning, not the bytes", () => {
    const base = { order_id: "42", amount: 3000, currency: "USD", payment_method: "pm_1", merchant_id: "m1" };
    expect(fingerprintOf({ ...base })).toBe(
      fingerprintOf({
        merchant_id: "m1",
        payment_method: "pm_1",
        currency: "USD",
        amount: 3000,
        order_id: "42",
      }),
    );
    expect(fingerprintOf({ ...base, amount: 3500 })).not.toBe(fingerprintOf(base));
  });
});
