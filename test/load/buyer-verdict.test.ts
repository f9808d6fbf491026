import { describe, expect, it } from "vitest";
import { type BuyerOutcome, buyerVerdict, verdictLines } from "../../scripts/lib/load/buyer-verdict";

const T0 = 1_700_000_000_000;
const buyer = (tapS: number, finalS: number | undefined, outcome: string): BuyerOutcome => ({
  intendedAt: T0 + tapS * 1000,
  ...(finalS === undefined ? {} : { finalAt: T0 + finalS * 1000 }),
  outcome,
});

describe("buyerVerdict, the run judged from the buyers' side", () => {
  it("is OK when every buyer heard succeeded or declined within the horizon, counted from the planned tap", () => {
    // prepare
    const records = [buyer(0, 2, "succeeded"), buyer(1, 45, "declined"), buyer(2, 30, "succeeded")];
    // act
    const v = buyerVerdict(records, 45_000, 20_000, { p99: 43_000, max: 44_000 });
    // assess
    expect(v).toMatchObject({
      buyers: 3,
      final_within_horizon: 3,
      final_within_horizon_pct: 100,
      final_after_horizon: 0,
      gave_up: 0,
      fifo_bound_s: 20,
      final_p99_s: 43,
      p99_over_bound: 2.15,
      max_over_bound: 2.2,
      ok: true,
    });
  });

  it("is NOT OK when a buyer was voided after the horizon or had no final answer at the end", () => {
    // prepare
    const records = [
      buyer(0, 2, "succeeded"),
      buyer(0, 50, "voided"),
      buyer(1, undefined, "processing"),
      buyer(2, undefined, "refused"),
    ];
    // act
    const v = buyerVerdict(records, 45_000, 10_000, { p99: 50_000, max: 50_000 });
    // assess
    expect(v).toMatchObject({ voided: 1, not_final: 2, gave_up: 3, final_within_horizon: 1, ok: false });
    expect(v.final_within_horizon_pct).toBe(25);
  });

  it("counts a late success as final after the horizon, not within it, and not as given up", () => {
    // prepare: the phone asked on after its 45 s and heard succeeded at 70 s from the tap
    const records = [buyer(10, 80, "succeeded")];
    // act
    const v = buyerVerdict(records, 45_000, 10_000, { p99: 70_000, max: 70_000 });
    // assess
    expect(v).toMatchObject({ final_within_horizon: 0, final_after_horizon: 1, gave_up: 0, ok: true });
  });

  it("gives no ratio when the bound is under 10 ms (no queue), and says so in the printed lines", () => {
    // prepare
    const records = [buyer(0, 0.3, "succeeded")];
    // act
    const v = buyerVerdict(records, 45_000, 0, { p99: 300, max: 300 });
    // assess
    expect(v.p99_over_bound).toBeNull();
    expect(verdictLines(v).join("\n")).toMatch(/FIFO bound 0 s; final answer p99 0.3 s \(n\/a \(no queue\)/);
  });
});
