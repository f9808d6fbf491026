import { afterEach, describe, expect, it } from "vitest";
import { chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import { ApiClient } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";
import { makeActive } from "../support/regions";
import { failoverMidPass, settleLeftovers } from "./support/failover-mid-pass";

// Short deadlines and a 0.5 s control cache, as the fault checker's stacks run.
Object.assign(process.env, chaosEnv());

const stack = useLocalStack({ standby: true, replicationLagMs: 200, resolverEveryMs: 0, sweepsEveryMs: 0 });
const primary = () => new ApiClient(stack().apiUrl);

afterEach(async () => {
  delete process.env.EO_TEST_UNSAFE_NO_RESOLVER_RECHECK;
  await primary().local("DELETE", "/faults");
  await primary().local("POST", "/replication", { paused: false });
  await stack().replicator?.awaitIdle(20_000);
  await makeActive(stack(), "primary");
  // A pass stopped at a fenced write leaves its rows unsettled.
  await settleLeftovers(stack());
});

/** The scheduled resolver's pass, as the Lambda runs it. */
const lambdaPass = async () =>
  (await primary().local("POST", "/run/resolver")).body.result as
    | { stoppedPassive?: boolean; examined: number }
    | undefined;

describe("a failover in the middle of a resolver pass", () => {
  it("the pass asks the authority again before each PSP call and stops at the new epoch: order 2 is charged once", async () => {
    // act
    const { voided, repaid, report, charges } = await failoverMidPass(stack(), lambdaPass);
    // assess
    expect(voided.body.state).toBe("VOID");
    expect([201, 202], JSON.stringify(repaid?.body)).toContain(repaid?.status);
    expect(report, JSON.stringify(report)).toMatchObject({ stoppedPassive: true, examined: 1 });
    expect(charges).toHaveLength(1);
  }, 120_000);

  it("counterfactual: a pass that checked once takes K2 for its own and replays its charge: order 2 is charged twice", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_RESOLVER_RECHECK = "1";
    // act
    const { repaid, report, charges } = await failoverMidPass(stack(), lambdaPass);
    // assess
    expect([201, 202], JSON.stringify(repaid?.body)).toContain(repaid?.status);
    expect(report?.stoppedPassive).toBeUndefined();
    expect(charges, JSON.stringify({ report, repaid: repaid?.body })).toHaveLength(2);
  }, 120_000);
});
