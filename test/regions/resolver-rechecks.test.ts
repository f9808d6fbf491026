import { afterEach, describe, expect, it } from "vitest";
import { paymentIdOf } from "../../packages/core/src";
import { chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import { ApiClient, order42 } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";
import { makeActive } from "../support/regions";
import { eventually } from "../support/tables";

// Short deadlines and a 0.5 s control cache, as the fault checker's stacks run.
Object.assign(process.env, chaosEnv());

const stack = useLocalStack({ standby: true, replicationLagMs: 200, resolverEveryMs: 0, sweepsEveryMs: 0 });
const primary = () => new ApiClient(stack().apiUrl);
const standby = () => new ApiClient(stack().standbyUrl ?? "");

afterEach(async () => {
  delete process.env.EO_TEST_UNSAFE_NO_RESOLVER_RECHECK;
  await primary().local("DELETE", "/faults");
  await primary().local("POST", "/replication", { paused: false });
  await stack().replicator?.awaitIdle(20_000);
  await makeActive(stack(), "primary");
  // A pass stopped at a fenced write leaves its rows unsettled; settle them now, or the next test's pass comes to
  // them first (the index lists the oldest first).
  for (let pass = 0; pass < 3; pass++) {
    await primary().local("POST", "/clock", { advance_s: 30 });
    const { backlog } = (await primary().local("POST", "/run/resolver")).body.result as { backlog: number };
    if (backlog === 0) break;
  }
});

/**
 * A resolver pass in the primary (epoch 1) replays K1's charge, whose PSP call is slow. Meanwhile the
 * authority names the standby, where the app asks about K2 (the primary died after K2's durable guard, unreplicated),
 * hears VOID and pays again with K3; then it names the primary again (epoch 3), so that the fence on each write lets
 * the pass go on. The pass then comes to K2, a row of epoch 1, which it would take for one of its own.
 */
async function failoverMidPass() {
  const caller = `rr-${Date.now().toString(36)}`;
  const token = await primary().token(caller);
  const [k1, k2, k3] = ["k1", "k2", "k3"].map((k) => `${caller}-${k}`) as [string, string, string];
  await primary().local("POST", "/replication", { paused: true });
  // Two payments whose owner died after the durable guard: K1's row is the older, so the pass comes to it first.
  for (const [key, order] of [
    [k1, "o1"],
    [k2, "o2"],
  ] as const) {
    await primary().local("POST", "/faults", { crash_at: "pay.after_guard", n: 1 });
    // A 503 psp-unavailable ran nothing (the budget's slot): the phone retries the same key at Retry-After.
    for (let tries = 0; tries < 10; tries++) {
      const died = await primary().pay(token, key, order42({ order_id: order }));
      if (died.status !== 503) break;
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
  await primary().local("POST", "/clock", { advance_s: 30 }); // both rows are past their owner's deadline
  await primary().local("POST", "/faults", { psp_delay_ms: 4_000, n: 1 });
  const pass = primary().local("POST", "/run/resolver");
  await eventually(
    async () => ((await primary().local("GET", "/psp/stats")).body.held ? true : undefined),
    10_000,
    "the resolver's replay of K1 held at the PSP",
  );
  await makeActive(stack(), "standby", "test: a failover in the middle of a resolver pass");
  const voided = await standby().resolve(token, k2);
  const repaid =
    voided.body.state === "VOID"
      ? await standby().payAsPhone(token, k3, order42({ order_id: "o2" }))
      : undefined;
  await makeActive(stack(), "primary", "test: and back, before the pass goes on");
  const report = (await pass).body.result as { stoppedPassive?: boolean; examined: number } | undefined;
  await new Promise((r) => setTimeout(r, 1_000)); // K3's charge, if its reply was late, is at the PSP by now
  const refs = [paymentIdOf(caller, k2), paymentIdOf(caller, k3)];
  const charges = (stack().psp.charges() as Array<{ reference: string }>).filter((c) =>
    refs.includes(c.reference),
  );
  return { voided, repaid, report, charges };
}

describe("a failover in the middle of a resolver pass", () => {
  it("the pass asks the authority again before each PSP call and stops at the new epoch: order 2 is charged once", async () => {
    // act
    const { voided, repaid, report, charges } = await failoverMidPass();
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
    const { repaid, report, charges } = await failoverMidPass();
    // assess
    expect([201, 202], JSON.stringify(repaid?.body)).toContain(repaid?.status);
    expect(report?.stoppedPassive).toBeUndefined();
    expect(charges, JSON.stringify({ report, repaid: repaid?.body })).toHaveLength(2);
  }, 120_000);
});
