import { describe, expect, it } from "vitest";
import { DRILLS } from "../../packages/local/src/drills/drills";
import { useLocalStack } from "../support/local-stack";

// The counterfactual of F2 that the home-Region rule exists to prevent: both Regions active, the claim table MREC.
const stack = useLocalStack(DRILLS["F2-both-active"]?.stack);

describe("branch F2, counterfactual: both Regions active on an MREC claim table", () => {
  it("both Regions run the whole path: A1′ is taken in R2 too, the buyer gets two receipts and two alerts", async () => {
    const result = await DRILLS["F2-both-active"]?.run(stack());
    expect(result?.matchesSeed).toBe(false);
    expect(result?.timeline.entries.find((e) => e.actor === "phone A1′")?.event).toMatch(/→ 201 SUCCEEDED/);
    expect(result?.count.emails).toBe(2);
    expect(result?.count.alerts).toBe(2);
    // one charge: the derived PSP key is the one guard left; the credit records converge under the event's id
    expect(result?.count.charges).toHaveLength(1);
  }, 120_000);
});
