import { describe, expect, it } from "vitest";
import { DRILLS } from "../../packages/local/src/drills/drills";
import { useLocalStack } from "../support/local-stack";
import { DRILL_TEST_LAG_MS } from "./support/drills";

// The counterfactual of F2 that the home-Region rule exists to prevent: both Regions active, the claim table MREC.
const stack = useLocalStack({ ...DRILLS["F2-both-active"]?.stack, replicationLagMs: DRILL_TEST_LAG_MS });

describe("branch F2, counterfactual: both Regions active on an MREC claim table", () => {
  it("both Regions run the whole path: A1′ is taken in R2 too (its own claim, its own payment row)", async () => {
    const result = await DRILLS["F2-both-active"]?.run(stack());
    expect(result?.matchesSeed).toBe(false);
    // taken, not refused: 201, or 202 when R2's call met A1's at the PSP before either had an answer
    expect(result?.timeline.entries.find((e) => e.actor === "phone A1′")?.event).toMatch(/→ 20[12] /);
    // one charge: the derived PSP key is the one guard left; the credit records converge under the event's id
    expect(result?.count.charges).toHaveLength(1);
  }, 120_000);
});
