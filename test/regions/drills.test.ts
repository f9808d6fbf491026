import { afterEach, describe, expect, it } from "vitest";
import { DRILLS } from "../../packages/local/src/drills/drills";
import { useLocalStack } from "../support/local-stack";
import { DRILL_TEST_LAG_MS, failBack } from "./support/drills";

// The seed's Region drills (Part 9) on the real local stack, the same code `npm run drill` plays.
const stack = useLocalStack({ ...DRILLS.F?.stack, replicationLagMs: DRILL_TEST_LAG_MS });

afterEach(async () => {
  await failBack(stack());
}, 90_000);

describe("branch F: a Region fails in the middle of replication", () => {
  it("ends with the seed's count: one charge, m1 12,000 → 15,000 in both Regions, one notification shown", async () => {
    // act
    const result = await DRILLS.F?.run(stack());
    // assess
    expect(result?.matchesSeed, JSON.stringify(result?.count)).toBe(true);
    expect(result?.count).toMatchObject({
      charges: [expect.stringMatching(/^ch_/)],
      merchant: { R1: { balance: 15_000, credits: 2 }, R2: { balance: 15_000, credits: 2 } },
      shown: 1,
    });
    // at most one receipt per Region that applied the event before its SENT mark replicated (docs/regions-and-failover.md)
    expect(result?.count.emails).toBeLessThanOrEqual(2);
    expect(result?.timeline.entries.map((e) => e.actor)).toEqual(
      expect.arrayContaining(["phone", "psp webhook", "relay+worker", "chaos", "on-call"]),
    );
  }, 120_000);

  it("counterfactual: a random event id in R1 is credited again in R2: m1 = 18,000", async () => {
    const result = await DRILLS["F-random-event-id"]?.run(stack());
    expect(result?.matchesSeed).toBe(false);
    expect(result?.count.charges).toHaveLength(1);
    expect(result?.count.merchant).toMatchObject({ R1: { balance: 18_000 }, R2: { balance: 18_000 } });
  }, 120_000);
});

describe("branch F2: two Regions see the same key within the lag", () => {
  it("with one home Region: A1′ is refused by the passive Region; one charge, one credit", async () => {
    const result = await DRILLS.F2?.run(stack());
    expect(result?.matchesSeed, JSON.stringify(result?.count)).toBe(true);
    expect(result?.timeline.entries.find((e) => e.actor === "phone A1′")?.event).toMatch(
      /503 .*region-passive/,
    );
  }, 120_000);
});
