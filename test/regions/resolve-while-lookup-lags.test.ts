import { afterEach, describe, expect, it } from "vitest";
import { ChaosApi } from "../../scripts/lib/chaos/chaos-api";
import { CHAOS_TWO_REGION_OPTIONS, chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import { useLocalStack } from "../support/local-stack";
import { resolveWhileLookupLags } from "./support/forced-failover";

Object.assign(process.env, chaosEnv());

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_VOID_ON_LAGGING_NOT_FOUND;
});

// One stack for both: the first trace fails the primary over to the standby, the second fails the standby back to
// the primary, whose handlers run in this process and so read the switch the counterfactual sets.
describe("no void on a 'not found' that may lag (issue 40): a forced failover, the generic PSP's lookup lagging", () => {
  const stack = useLocalStack(CHAOS_TWO_REGION_OPTIONS);

  it("resolve answers PROCESSING with Retry-After, then SUCCEEDED once the lookup catches up: one charge", async () => {
    // act
    const { died, lagging, paid, after, charged, first } = await resolveWhileLookupLags(
      new ChaosApi(stack().apiUrl),
    );
    // assess
    expect(died.status, JSON.stringify(died.body)).toBe(500);
    expect(lagging.status).toBe(200);
    expect(lagging.body).toMatchObject({ state: "PROCESSING", payment_id: first });
    expect(Number(lagging.retryAfter)).toBeGreaterThan(0);
    expect(paid).toBeUndefined();
    expect(after.body).toMatchObject({ state: "SUCCEEDED", payment_id: first });
    expect(charged).toEqual([first]);
  }, 120_000);

  it("counterfactual: one lagging 'not found' voids the key, the app pays again, and the order is charged twice", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_VOID_ON_LAGGING_NOT_FOUND = "1";
    // act
    const { lagging, paid, after, charged } = await resolveWhileLookupLags(new ChaosApi(stack().apiUrl));
    // assess: the tombstone is never checked again, so the first key stays VOID after the lag
    expect(lagging.body.state).toBe("VOID");
    expect(paid?.status, JSON.stringify(paid?.body)).toBe(201);
    expect(after.body.state).toBe("VOID");
    expect(charged).toHaveLength(2);
  }, 120_000);
});
