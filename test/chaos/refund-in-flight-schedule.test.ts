import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { stalledReplicationScheduleArbitrary } from "../../scripts/lib/chaos/arbitraries";
import { ChaosApi } from "../../scripts/lib/chaos/chaos-api";
import { CHAOS_TWO_REGION_OPTIONS, chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import { runOne } from "../../scripts/lib/chaos/run-one";
import type { Schedule } from "../../scripts/lib/chaos/schedule";
import { useLocalStack } from "../support/local-stack";

Object.assign(process.env, chaosEnv());

/**
 * Issue 40's trace as the fault checker's nemesis plays it (`--stall-replication`): the primary's owner dies after
 * the durable guard and the row ships; replication stalls; the retry settles the payment in the primary and the buyer
 * cancels while the PSP refuses the refund at its edge (the refund in flight); the primary fails and the standby,
 * promoted, settles its older copy on the app's retry; the primary comes back and replication resumes.
 */
const REFUND_IN_FLIGHT: Schedule = {
  orders: [{ caller: 0, merchant: 0, amount: 5_800, declined: false }],
  steps: [
    { op: "pay", order: 0, fault: { kind: "crash", point: "pay.after_guard" } },
    { op: "later", seconds: 10 },
    { op: "replication_stall" },
    { op: "pay", order: 0, fault: { kind: "none" } },
    { op: "cancel", order: 0, fault: "psp_outage" },
    { op: "region_fail" },
    { op: "pay", order: 0, fault: { kind: "none" } },
    { op: "region_recover" },
  ],
};

describe("the nemesis holds a refund in flight across a stall and a failover (issue 40, item 3)", () => {
  const stack = useLocalStack(CHAOS_TWO_REGION_OPTIONS);
  afterEach(() => {
    delete process.env.EO_TEST_UNSAFE_NO_REFUND_IN_FLIGHT_FACT;
  });

  it("draws the step: --stall-replication's schedules cancel with the refund held back, beside a stall", () => {
    // act
    const drawn = fc.sample(stalledReplicationScheduleArbitrary, { numRuns: 300, seed: 40 });
    // assess
    const steps = drawn.flatMap((s) => s.steps);
    expect(steps.some((st) => st.op === "cancel" && st.fault === "psp_outage")).toBe(true);
    expect(steps.some((st) => st.op === "replication_stall")).toBe(true);
  });

  it("judges the trace clean: the refund the buyer was promised is sent once", async () => {
    // act
    const record = await runOne(new ChaosApi(stack().apiUrl), REFUND_IN_FLIGHT);
    // assess
    expect(record.faultsFired.psp_outage_at_cancel).toBe(1);
    expect(record.violations).toEqual([]);
  }, 120_000);

  it("counterfactual (EO_TEST_UNSAFE_NO_REFUND_IN_FLIGHT_FACT=1): the checker finds the refund lost", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_REFUND_IN_FLIGHT_FACT = "1";
    // act
    const record = await runOne(new ChaosApi(stack().apiUrl), REFUND_IN_FLIGHT);
    // assess
    expect(record.violations).toContainEqual({
      check: "answers-agree",
      reason: expect.stringMatching(
        /a client heard REFUND_PENDING \(a refund promised\), the ledger ends SUCCEEDED/,
      ),
    });
  }, 120_000);
});
