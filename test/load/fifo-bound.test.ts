import { describe, expect, it } from "vitest";
import { fifoBoundMs } from "../../scripts/lib/load/fifo-bound";

describe("fifoBoundMs, the least possible worst wait in tap order at the budget", () => {
  it("is zero when arrivals are spaced wider than the budget's gap", () => {
    // prepare
    const taps = [0, 500, 1_000, 1_500];
    // act
    const bound = fifoBoundMs(taps, 4);
    // assess
    expect(bound).toBe(0);
  });

  it("is the last arrival's wait when arrivals outrun the budget", () => {
    // prepare: 10 taps in the first second against 4/s: the tenth is served at 9 × 250 ms
    const taps = Array.from({ length: 10 }, (_, i) => i * 100);
    // act
    const bound = fifoBoundMs(taps, 4);
    // assess
    expect(bound).toBe(2_250 - 900);
  });

  it("matches the issue's run: 245 arrivals over 30 s at 4.4/s leave the last tap about 26 s to wait", () => {
    // prepare
    const taps = Array.from({ length: 245 }, (_, i) => (i * 30_000) / 245);
    // act
    const bound = fifoBoundMs(taps, 4.4);
    // assess
    expect(bound / 1000).toBeCloseTo(244 / 4.4 - (244 * 30) / 245, 5);
    expect(bound / 1000).toBeGreaterThan(25);
    expect(bound / 1000).toBeLessThan(27);
  });

  it("takes the worst wait over every buyer, not only the last, and sorts the taps first", () => {
    // prepare: a burst of 5 at t=0, then one straggler long after the queue drained
    const taps = [10_000, 0, 0, 0, 0, 0];
    // act
    const bound = fifoBoundMs(taps, 1);
    // assess
    expect(bound).toBe(4_000);
  });

  it("serves nobody inside a blocked span (an outage), so the queue waits for its end", () => {
    // prepare: 2/s for 10 s, the PSP out from 2 s to 6 s
    const taps = Array.from({ length: 20 }, (_, i) => i * 500);
    // act
    const bound = fifoBoundMs(taps, 2, [{ fromMs: 2_000, toMs: 6_000 }]);
    // assess: the tap at 2 000 ms is served at 6 000 and every later one waits the same 4 s
    expect(bound).toBe(4_000);
  });

  it("refuses a budget that is not a positive rate", () => {
    // act / assess
    expect(() => fifoBoundMs([0], 0)).toThrow(RangeError);
  });
});
