import { afterEach, describe, expect, it } from "vitest";
import { paymentIdOf } from "../../packages/core/src";
import { LOCAL_FAILOVER_SETTINGS, localSides } from "../../scripts/lib/failover/local-sides";
import { observe } from "../../scripts/lib/failover/observe";
import { Progress } from "../../scripts/lib/failover/progress";
import { forcedSwitch } from "../../scripts/lib/failover/switch-over";
import { ApiClient, order42 } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";
import { failBack } from "./support/drills";

// A write is checked against a read of the authority at most 2 s old here (REGION_FENCE_CACHE_MS), so that a
// request can read "primary active", stall, and still write its durable guard after the failover fenced the primary.
Object.assign(process.env, { REGION_FENCE_CACHE_MS: "2000", REGION_CONTROL_CACHE_MS: "2000" });
const ACT_WINDOW_MS = 2_000 + 1_500 + 1_000;

const stack = useLocalStack({ standby: true, replicationLagMs: 200, resolverEveryMs: 0, sweepsEveryMs: 0 });
const primary = () => new ApiClient(stack().apiUrl);
const standby = () => new ApiClient(stack().standbyUrl ?? "");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterEach(async () => {
  delete process.env.EO_TEST_UNSAFE_NO_ACT_WINDOW;
  await failBack(stack());
}, 90_000);

/**
 * A request in the primary reads "primary active", stalls 1.5 s after its claim, and writes its durable guard and
 * charges K after a forced failover fenced the primary; meanwhile the app asks the standby "did K go through?" and
 * pays again with K2 on VOID.
 */
async function readThenFencedThenWrite() {
  const caller = `aw-${Date.now().toString(36)}`;
  const token = await primary().token(caller);
  const [k, k2] = [`${caller}-k`, `${caller}-k2`];
  await sleep(2_200); // the standby's earlier reads of the authority have aged out
  await primary().local("POST", "/faults", { stall_after_claim_ms: 1_500, n: 1 });
  const paying = primary().pay(token, k, order42());
  await sleep(300);
  const sides = localSides({
    dynamodb: stack().emulators.endpoints.dynamodb,
    apis: { primary: new URL(stack().apiUrl).origin, standby: new URL(stack().standbyUrl ?? "").origin },
    regions: {
      primary: stack().emulators.regions.primary.region,
      standby: stack().emulators.regions.standby.region,
    },
  });
  const switching = forcedSwitch(new Progress(() => undefined), sides, await observe(sides), "primary", {
    ...LOCAL_FAILOVER_SETTINGS,
    actWindowMs: ACT_WINDOW_MS,
    drainFloorMs: 0,
  });
  await sleep(300);
  const early = await standby().resolve(token, k);
  const repaid = early.body.state === "VOID" ? await standby().pay(token, k2, order42()) : undefined;
  const first = await paying;
  await switching;
  await stack().replicator?.awaitIdle(20_000);
  const later = await standby().resolve(token, k);
  const refs = [paymentIdOf(caller, k), paymentIdOf(caller, k2)];
  const charges = (stack().psp.charges() as Array<{ reference: string }>).filter((c) =>
    refs.includes(c.reference),
  );
  return { first, early, repaid, later, charges };
}

describe("the window between a read of the authority and a write", () => {
  it("the new Region waits out the act window: the app hears 503, then the old Region's payment; one charge", async () => {
    // act
    const { first, early, repaid, later, charges } = await readThenFencedThenWrite();
    // assess
    expect(first.status, JSON.stringify(first.body)).toBe(201); // its read was within the fence cache: it wrote
    expect(early.status).toBe(503);
    expect(String(early.body.type)).toMatch(/region-passive$/);
    expect(repaid).toBeUndefined();
    expect(later.body.state).toBe("SUCCEEDED");
    expect(charges).toHaveLength(1);
  }, 120_000);

  it("counterfactual: a new Region that acts at once voids K while the old one still charges it: two charges", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_ACT_WINDOW = "1";
    // act
    const { early, repaid, charges } = await readThenFencedThenWrite();
    // assess
    expect(early.body.state).toBe("VOID");
    expect(repaid?.status).toBe(201);
    expect(charges).toHaveLength(2);
  }, 120_000);
});
