import { afterEach, describe, expect, it } from "vitest";
import { DRILLS } from "../../packages/local/src/drills/drills";
import { useLocalStack } from "../support/local-stack";
import { failBack } from "./support/drills";

// F3 and F4 (issue 26): the old Region acts again with nobody having run the failover command for it.
const stack = useLocalStack({ ...DRILLS.F3?.stack });

afterEach(async () => {
  await failBack(stack());
}, 90_000);

describe("F3: the old Region comes back by itself", () => {
  it("is passive on its own: its resolver does nothing, the stale phone's retry gets 503, one charge for the order", async () => {
    // act
    const result = await DRILLS.F3?.run(stack());
    // assess
    expect(result?.matchesSeed, result?.timeline.entries.map((e) => e.event).join("\n")).toBe(true);
    expect(result?.count.charges).toHaveLength(1);
    const event = (actor: string) => result?.timeline.entries.find((e) => e.actor === actor)?.event;
    expect(event("resolver")).toMatch(/^passive/);
    expect(event("stale phone")).toMatch(/503 .*region-passive/);
  }, 150_000);
});

describe("F4: the old Region is partitioned and keeps running", () => {
  it("cannot read the authority, so it is passive: one charge for the order", async () => {
    // act
    const result = await DRILLS.F4?.run(stack());
    // assess
    expect(result?.matchesSeed, result?.timeline.entries.map((e) => e.event).join("\n")).toBe(true);
    expect(result?.count.charges).toHaveLength(1);
    expect(result?.timeline.entries.find((e) => e.actor === "stale phone")?.event).toMatch(
      /503 .*region-passive/,
    );
  }, 150_000);
});
