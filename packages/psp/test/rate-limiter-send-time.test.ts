import { describe, expect, it } from "vitest";
import { createRateLimiter, sentAtOf } from "../src/rate-limiter";

const limits = { perAccount: 100, perEndpoint: 5 };

/** A limiter on a hand-moved time line, so that "read late" can be staged exactly. */
function limiterAt() {
  let now = 0;
  const limiter = createRateLimiter(limits, () => now);
  return { limiter, readAt: (t: number) => (now = t) };
}

describe("a request counted when it left its sender", () => {
  it("admits 4 a second sent evenly, though a busy moment reads two seconds' worth together", () => {
    // prepare: sent at 0, 250, … 1750 ms (4/s under a limit of 5), every one read at 1.8 s
    const { limiter, readAt } = limiterAt();
    const sent = Array.from({ length: 8 }, (_, i) => i * 250);
    readAt(1_800);
    // act
    const admitted = sent.map((at) => limiter.admit("sk", "POST /v1/charges", at));
    // assess
    expect(admitted).toEqual(Array(8).fill(true));
  });

  it("without the send moment (counted when read), the same requests are six too many in one second", () => {
    // prepare: the guard's absence, the limiter's own reading time
    const { limiter, readAt } = limiterAt();
    readAt(1_800);
    // act
    const admitted = Array.from({ length: 8 }, () => limiter.admit("sk", "POST /v1/charges"));
    // assess
    expect(admitted.filter((a) => !a)).toHaveLength(3);
  });

  it("still refuses six sent within one second, whatever order they are read in", () => {
    // prepare
    const { limiter, readAt } = limiterAt();
    readAt(2_000);
    // act
    const admitted = [900, 100, 500, 300, 700, 950].map((at) => limiter.admit("sk", "POST /v1/charges", at));
    // assess
    expect(admitted).toEqual([true, true, true, true, true, false]);
  });

  it("refuses a late-read request that would make a window it shares with later ones too full", () => {
    // prepare: five read on time at 1.0–1.4 s, then one sent at 0.5 s read last
    const { limiter, readAt } = limiterAt();
    readAt(1_400);
    for (const at of [1_000, 1_100, 1_200, 1_300, 1_400])
      expect(limiter.admit("sk", "POST /v1/charges", at)).toBe(true);
    // act
    const late = limiter.admit("sk", "POST /v1/charges", 500);
    // assess: (0.4 s, 1.4 s] would hold six
    expect(late).toBe(false);
  });
});

describe("sentAtOf", () => {
  it("reads a plausible send moment and ignores a missing, future or stale one", () => {
    // act / assess
    const now = 1_700_000_000_000;
    expect(sentAtOf(String(now - 300), now)).toBeTypeOf("number");
    expect(sentAtOf(undefined, now)).toBeUndefined();
    expect(sentAtOf("soon", now)).toBeUndefined();
    expect(sentAtOf(String(now + 1_000), now)).toBeUndefined();
    expect(sentAtOf(String(now - 6_000), now)).toBeUndefined();
  });
});
