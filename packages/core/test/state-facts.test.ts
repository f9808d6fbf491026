import { describe, expect, it } from "vitest";
import type { PaymentRow } from "../src/ledger/ledger-items";
import { DECLINE_FACT_SK, mergeFacts } from "../src/ledger/state-facts";
import type { PaymentState } from "../src/payment/payment-state";

const row = (state: PaymentState, more: Partial<PaymentRow> = {}): PaymentRow =>
  ({ payment_id: "pay_1", state, amount: 3000, currency: "USD", ...more }) as PaymentRow;

const charge = { sk: "JOURNAL#1", psp_charge: "ch_1" };
const refund = { sk: "JOURNAL#3", psp_refund: "re_1" };

describe("a row read with its state facts (Part 9: rows that merge forward)", () => {
  it("a later write of an earlier state reads as the furthest state its facts prove", () => {
    // prepare: the other Region's SUCCEEDED, written later from an older copy, won over REFUNDED here
    const stale = row("SUCCEEDED", { psp_charge: "ch_1" });
    // act
    const read = mergeFacts(stale, [charge, refund]);
    // assess
    expect(read).toMatchObject({ state: "REFUNDED", psp_charge: "ch_1", psp_refund: "re_1" });
    expect(stale.state).toBe("SUCCEEDED");
  });

  it("an open row with a charge's entry reads SUCCEEDED and names the charge; with a refund's, REFUNDED", () => {
    expect(mergeFacts(row("UNKNOWN"), [charge])).toMatchObject({ state: "SUCCEEDED", psp_charge: "ch_1" });
    expect(mergeFacts(row("PENDING"), [charge, refund])).toMatchObject({
      state: "REFUNDED",
      psp_charge: "ch_1",
    });
    expect(
      mergeFacts(row("UNKNOWN"), [{ sk: DECLINE_FACT_SK, decline_code: "generic_decline" }]),
    ).toMatchObject({
      state: "FAILED",
      decline_code: "generic_decline",
    });
  });

  it("never moves a row back, nor across SUCCEEDED and FAILED, nor from a charge's entry that names no charge", () => {
    const inFlight = row("REFUND_PENDING", { psp_charge: "ch_1", refund_attempt: 1 });
    expect(mergeFacts(inFlight, [charge])).toBe(inFlight);
    const failed = row("FAILED", { decline_code: "generic_decline" });
    expect(mergeFacts(failed, [charge])).toBe(failed);
    const open = row("UNKNOWN");
    expect(mergeFacts(open, [{ sk: "JOURNAL#1" }])).toBe(open);
    const refunded = row("REFUNDED", { psp_charge: "ch_1" });
    expect(mergeFacts(refunded, [charge, refund])).toBe(refunded);
  });
});
