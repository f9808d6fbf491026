import { afterEach, describe, expect, it } from "vitest";
import type { PaymentRow } from "../src/ledger/ledger-items";
import { DECLINE_FACT_SK, isStateFact, mergeFacts, nextRefundAttempt } from "../src/ledger/state-facts";
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

describe("a refund's outcome folded from write-once facts (issue 39: a refund that fails later)", () => {
  const failedLater = {
    sk: "JOURNAL#4",
    psp_refund: "re_1",
    refund_failure_reason: "expired_or_canceled_card",
  };
  afterEach(() => {
    delete process.env.EO_TEST_UNSAFE_NO_REFUND_FAILED_FACT;
  });

  it("the REFUND_FAILED fact of attempt n beats the REFUNDED row and entry of attempt n (a later REFUNDED write won)", () => {
    // prepare: the other Region's REFUNDED row, written after this one's REFUND_FAILED, won under last writer wins
    const stale = row("REFUNDED", { psp_charge: "ch_1", psp_refund: "re_1", refund_attempt: 1 });
    // act
    const read = mergeFacts(stale, [charge, refund, failedLater]);
    // assess
    expect(read).toMatchObject({
      state: "REFUND_FAILED",
      refund_attempt: 1,
      refund_failure_reason: "expired_or_canceled_card",
    });
  });

  it("a later attempt's facts beat an earlier's; a row at a later attempt than the facts wins", () => {
    const second = { sk: "JOURNAL#3#2", psp_refund: "re_2" };
    const failedRow = row("REFUND_FAILED", { psp_charge: "ch_1", refund_attempt: 1 });
    expect(mergeFacts(failedRow, [charge, refund, failedLater, second])).toMatchObject({
      state: "REFUNDED",
      refund_attempt: 2,
      psp_refund: "re_2",
    });
    const retrying = row("REFUND_PENDING", { psp_charge: "ch_1", refund_attempt: 2 });
    expect(mergeFacts(retrying, [charge, refund, failedLater])).toBe(retrying);
    const failed = row("REFUND_FAILED", { psp_charge: "ch_1", refund_attempt: 1 });
    expect(mergeFacts(failed, [charge, refund])).toBe(failed);
  });

  it("with EO_TEST_UNSAFE_NO_REFUND_FAILED_FACT=1, the REFUNDED write hides the failure: the payment reads REFUNDED", () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_REFUND_FAILED_FACT = "1";
    const stale = row("REFUNDED", { psp_charge: "ch_1", psp_refund: "re_1", refund_attempt: 1 });
    // act
    const read = mergeFacts(stale, [charge, refund, failedLater]);
    // assess
    expect(read.state).toBe("REFUNDED");
  });
});

describe("a refund in flight folded from its write-once fact (issue 40: a refund lost to last-writer-wins)", () => {
  const pending = (n = 1) => ({
    sk: n === 1 ? "FACT#REFUND_PENDING" : `FACT#REFUND_PENDING#${n}`,
    refund_attempt: n,
    psp_charge: "ch_1",
    at: 42,
  });
  const refused = (n = 1) => ({ sk: n === 1 ? "FACT#REFUND_REFUSED" : `FACT#REFUND_REFUSED#${n}` });
  afterEach(() => {
    delete process.env.EO_TEST_UNSAFE_NO_REFUND_IN_FLIGHT_FACT;
  });

  it("the standby's later SUCCEEDED, settled from its older PENDING copy, reads REFUND_PENDING at the fact's attempt", () => {
    // prepare: the promoted Region settled its PENDING copy; the primary's cancel arrives as its facts alone
    const stale = row("SUCCEEDED", { psp_charge: "ch_1" });
    // act
    const read = mergeFacts(stale, [charge, pending()]);
    // assess
    expect(read).toMatchObject({ state: "REFUND_PENDING", refund_attempt: 1, refund_started_at: 42 });
    expect(mergeFacts(row("PENDING"), [pending()])).toMatchObject({
      state: "REFUND_PENDING",
      psp_charge: "ch_1",
    });
  });

  it("an attempt with an outcome (refunded, failed or refused) no longer drags the row; the row in flight stays", () => {
    const succeeded = row("SUCCEEDED", { psp_charge: "ch_1", refund_attempt: 1 });
    expect(mergeFacts(succeeded, [charge, pending(), refused()])).toMatchObject({ state: "SUCCEEDED" });
    expect(mergeFacts(succeeded, [charge, pending()]), "its refusal's fact on its way").toBe(succeeded);
    expect(mergeFacts(row("SUCCEEDED"), [charge, pending(), refund])).toMatchObject({ state: "REFUNDED" });
    const inFlight = row("REFUND_UNKNOWN", { psp_charge: "ch_1", refund_attempt: 1 });
    expect(mergeFacts(inFlight, [charge, pending()])).toBe(inFlight);
    expect(mergeFacts(inFlight, [charge, pending(), refused()])).toMatchObject({ state: "SUCCEEDED" });
  });

  it("a later attempt in flight beats an earlier one's failure, and forgets that attempt's refund", () => {
    const failed = row("REFUND_FAILED", { psp_charge: "ch_1", psp_refund: "re_1", refund_attempt: 1 });
    const read = mergeFacts(failed, [charge, { sk: "JOURNAL#4", psp_refund: "re_1" }, pending(2)]);
    expect(read).toMatchObject({ state: "REFUND_PENDING", refund_attempt: 2 });
    expect(read.psp_refund).toBeUndefined();
  });

  it("the next attempt is one past any the row or its facts name: a re-cancel never reuses a refused attempt's key", () => {
    expect(nextRefundAttempt(row("SUCCEEDED"), [charge, pending(), refused()])).toBe(2);
    expect(nextRefundAttempt(row("SUCCEEDED", { refund_attempt: 3 }), [pending(2), refused(2)])).toBe(4);
    const merged = mergeFacts(row("SUCCEEDED", { psp_charge: "ch_1" }), [charge, pending(), refused()]);
    expect(nextRefundAttempt(merged)).toBe(2);
  });

  it("with EO_TEST_UNSAFE_NO_REFUND_IN_FLIGHT_FACT=1 the facts are not read: the later SUCCEEDED stands", () => {
    process.env.EO_TEST_UNSAFE_NO_REFUND_IN_FLIGHT_FACT = "1";
    expect(isStateFact("FACT#REFUND_PENDING")).toBe(false);
    expect(mergeFacts(row("SUCCEEDED", { psp_charge: "ch_1" }), [charge, pending()]).state).toBe("SUCCEEDED");
    expect(nextRefundAttempt(row("SUCCEEDED"), [pending(), refused()])).toBe(1);
  });
});
