import { afterEach, describe, expect, it } from "vitest";
import { DRILLS } from "../../packages/local/src/drills/drills";
import { useLocalStack } from "../support/local-stack";
import { failBack } from "./support/drills";

// The counterfactual of F3 and F4: each Region trusts its own copy of the control (EO_TEST_UNSAFE_TRUST_OWN_COPY).
const stack = useLocalStack({ ...DRILLS["F3-own-copy"]?.stack });

afterEach(async () => {
  await failBack(stack());
}, 90_000);

describe("F3 and F4, counterfactual: a Region trusts its own copy of the control", () => {
  it("F3: the Region back by itself settles K by charging it, and the stale retry gets 201: two charges", async () => {
    const result = await DRILLS["F3-own-copy"]?.run(stack());
    expect(result?.matchesSeed).toBe(false);
    expect(result?.count.charges).toHaveLength(2);
    expect(result?.timeline.entries.find((e) => e.actor === "stale phone")?.event).toMatch(/→ 201 SUCCEEDED/);
  }, 150_000);

  it("F4: the partitioned Region takes the stale retry: two charges", async () => {
    const result = await DRILLS["F4-own-copy"]?.run(stack());
    expect(result?.matchesSeed).toBe(false);
    expect(result?.count.charges).toHaveLength(2);
  }, 150_000);
});
