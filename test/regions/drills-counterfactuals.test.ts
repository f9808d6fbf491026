import { describe, expect, it } from "vitest";
import { DRILLS } from "../../packages/local/src/drills/drills";
import { useLocalStack } from "../support/local-stack";
import { DRILL_TEST_LAG_MS } from "./support/drills";

// The counterfactual that needs its own standby: R2's functions derive a PSP key per Region and attempt.
const stack = useLocalStack({ ...DRILLS["F-attempt-key"]?.stack, replicationLagMs: DRILL_TEST_LAG_MS });

describe("branch F, counterfactual: a per-Region attempt key (pay_7:R2:1)", () => {
  it("the PSP has never seen R2's key and charges again: two charges", async () => {
    const result = await DRILLS["F-attempt-key"]?.run(stack());
    expect(result?.matchesSeed).toBe(false);
    expect(result?.count.charges).toHaveLength(2);
  }, 120_000);
});
