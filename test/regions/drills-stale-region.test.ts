import { afterEach, describe, expect, it } from "vitest";
import { drillFailover } from "../../packages/local/src/drills/drill-failover";
import { DRILLS } from "../../packages/local/src/drills/drills";
import { ApiClient, newKey, order42 } from "../support/api-client";
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

describe("F4 in AWS's shape: the old Region is cut off from its peer and the authority, but the operator reaches it", () => {
  it("the failover is forced all the same (exit 0 or 3), the old Region refuses the stale retry: one charge", async () => {
    // act
    const result = await DRILLS["F4-operator-reaches"]?.run(stack());
    // assess
    const trace = result?.timeline.entries.map((e) => e.event).join("\n");
    expect(result?.matchesSeed, trace).toBe(true);
    expect(result?.count.charges).toHaveLength(1);
    expect(trace).toMatch(/forced although primary answers this machine/);
    expect(trace).toMatch(/--force → exit [03] \(forced, epoch \d+\)/);
    expect(result?.timeline.entries.find((e) => e.actor === "stale phone")?.event).toMatch(
      /503 .*region-passive/,
    );
  }, 150_000);
});

describe("a failover while the cut-off Region still answers the operator, unforced or with --force ignored", () => {
  const primary = () => new ApiClient(stack().apiUrl);
  const standby = () => new ApiClient(stack().standbyUrl ?? "");
  // The canary from a cut-off Region never arrives: a short timeout keeps the trace quick.
  const failover = (force: boolean, lines: string[]) =>
    drillFailover(stack(), "standby", force, (l) => lines.push(l), { canaryTimeoutMs: 2_000 });

  it("unforced, the planned path cannot drain it: exit 1, nothing changed, --force suggested; with --force ignored (EO_TEST_UNSAFE_FORCE_IGNORED_WHEN_REACHABLE=1) the same exit 1 while neither Region takes writes", async () => {
    // prepare
    await primary().local("POST", "/regions/primary/partition", { operator_reaches: true });
    const regions = await primary().local("GET", "/regions");
    const lines: string[] = [];
    try {
      // act
      const unforced = await failover(false, lines);
      process.env.EO_TEST_UNSAFE_FORCE_IGNORED_WHEN_REACHABLE = "1";
      const ignored = await failover(true, []);
      const token = await standby().token("u1");
      const onOld = await primary().pay(token, newKey(), order42());
      const onTarget = await standby().pay(token, newKey(), order42());
      const after = await primary().local("GET", "/regions");
      // assess
      expect(regions.body).toMatchObject({
        regions: { primary: { partitioned: true, operator_reaches: true, reaches_authority: false } },
      });
      expect(unforced).toMatchObject({ code: 1, mode: "planned" });
      expect(lines.join("\n")).toMatch(/canary did not reach standby.*Nothing changed.*--force/);
      const authority = (regions.body as { authority: { active: string; epoch: number } }).authority;
      expect(after.body).toMatchObject({ authority: { active: authority.active, epoch: authority.epoch } });
      expect(ignored).toMatchObject({ code: 1, mode: "planned" });
      expect(onOld.status).toBe(503);
      expect(onTarget.status).toBe(503);
      expect(String(onTarget.body.type)).toMatch(/region-passive$/);
    } finally {
      delete process.env.EO_TEST_UNSAFE_FORCE_IGNORED_WHEN_REACHABLE;
      await primary().local("POST", "/regions/primary/heal");
    }
    const healed = await primary().local("GET", "/regions");
    expect(healed.body).toMatchObject({
      regions: { primary: { partitioned: false, operator_reaches: true } },
    });
  }, 60_000);
});
