import { forcedSwitch, observe, Progress } from "@eo/core/failover";
import { afterEach, describe, expect, it } from "vitest";
import { paymentIdOf } from "../../packages/core/src";
import { LOCAL_FAILOVER_SETTINGS, localSides } from "../../packages/local/src/region/local-sides";
import { ApiClient, order42 } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";
import { failBack } from "./support/drills";

// A write is checked against a read of the authority at most 4 s old here (REGION_FENCE_CACHE_MS), so that a
// request can read "primary active", stall 1.5 s, and still write its durable guard after the failover fenced the
// primary, even on a loaded machine; the act window is that cache, the stall (the longest act here) and the SDK's 1 s.
Object.assign(process.env, { REGION_FENCE_CACHE_MS: "4000", REGION_CONTROL_CACHE_MS: "4000" });
const ACT_WINDOW_MS = 4_000 + 1_500 + 1_000;

// No relay or worker: in one local process every handler shares the Region's view of the authority, and their reads
// would refresh it for the stalled request too (a Lambda container serves one invocation at a time).
const stack = useLocalStack({
  standby: true,
  replicationLagMs: 200,
  resolverEveryMs: 0,
  sweepsEveryMs: 0,
  asyncHalf: false,
  // This file isolates the act window: the standby voids on one "not found" (issue 40's guard switched off), since a
  // new Region that acts at once is otherwise also kept from voiding K by the not-found settle time since the switch.
  standbyEnv: { EO_TEST_UNSAFE_VOID_ON_LAGGING_NOT_FOUND: "1" },
});
const primary = () => new ApiClient(stack().apiUrl);
const standby = () => new ApiClient(stack().standbyUrl ?? "");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The failover's view of this stack: both Regions' tables and APIs, and the local authority. */
const stackSides = () =>
  localSides({
    dynamodb: stack().emulators.endpoints.dynamodb,
    apis: { primary: new URL(stack().apiUrl).origin, standby: new URL(stack().standbyUrl ?? "").origin },
    regions: {
      primary: stack().emulators.regions.primary.region,
      standby: stack().emulators.regions.standby.region,
    },
  });

afterEach(async () => {
  delete process.env.EO_TEST_UNSAFE_NO_ACT_WINDOW;
  await primary().local("POST", "/replication", { paused: false });
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
  // A cold start of the primary's payment function (a bad body, which writes nothing), so that the request below
  // reads the authority at once, well before the fence.
  await primary().pay(token, `${caller}-warm`, { warm: "up" });
  await sleep(4_200); // the standby's earlier reads of the authority have aged out
  // Nothing of the primary's reaches the standby meanwhile (else the standby's VOID would reach the primary before
  // its stalled guard, and the durable guard alone would refuse the late original).
  await primary().local("POST", "/replication", { paused: true });
  await primary().local("POST", "/faults", { stall_after_claim_ms: 1_500, n: 1 });
  const paying = primary().pay(token, k, order42());
  await sleep(500);
  const sides = stackSides();
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
  // The app asks again, as a 503 with Retry-After tells it to; the standby has no row, and asks the PSP.
  let later = await standby().resolve(token, k);
  for (let i = 0; i < 20 && later.status === 503; i++) {
    await sleep(500);
    later = await standby().resolve(token, k);
  }
  await primary().local("POST", "/replication", { paused: false });
  await stack().replicator?.awaitIdle(20_000);
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

describe("the authority's side of the clock", () => {
  it("is read from DynamoDB's reply Date, which the failover stamps active_from on", async () => {
    // prepare
    const sides = stackSides();
    // act
    const reading = await sides.authority.clock?.();
    // assess: one machine, one clock: the reply's second holds the moment it was sent
    expect(reading).toBeDefined();
    expect(reading?.serverDateMs).toBeGreaterThan((reading?.sentMs ?? 0) - 1_000);
    expect(reading?.serverDateMs).toBeLessThanOrEqual(reading?.receivedMs ?? 0);
  });
});
