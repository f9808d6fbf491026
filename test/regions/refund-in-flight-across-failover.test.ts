import { afterEach, describe, expect, it } from "vitest";
import { ChaosApi } from "../../scripts/lib/chaos/chaos-api";
import { CHAOS_TWO_REGION_OPTIONS, chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import { useLocalStack } from "../support/local-stack";
import { refundInFlightAcrossFailover } from "./support/refund-in-flight-across-failover";

Object.assign(process.env, chaosEnv());

// Issue 40 item 3 (seed Part 9): a refund in flight is no final state, and the promoted Region's later SUCCEEDED,
// settled from its older PENDING copy, wins over it under last-writer-wins unless the refund's start is a fact.
describe("a refund in flight across a failover", () => {
  const stack = useLocalStack(CHAOS_TWO_REGION_OPTIONS);
  afterEach(() => {
    delete process.env.EO_TEST_UNSAFE_NO_REFUND_IN_FLIGHT_FACT;
  });

  it("the standby's later SUCCEEDED loses to the refund's in-flight fact: REFUND_PENDING, then REFUNDED, refunded once", async () => {
    // prepare / act: settled and cancelled in the primary (the PSP out), settled again in the standby, the primary back
    const { paid, cancelled, retry, read, charges, refunds } = await refundInFlightAcrossFailover(
      stack(),
      new ChaosApi(stack().apiUrl),
    );
    // assess
    expect(paid.status).toBe(201);
    expect(cancelled.body.state, "the buyer was promised the refund").toBe("REFUND_PENDING");
    expect(retry.status, "the standby settled its older copy").toBe(201);
    expect(read.body.state, JSON.stringify(read.body)).toBe("REFUNDED");
    expect(charges).toEqual([expect.objectContaining({ refunded: true })]);
    expect(refunds).toHaveLength(1);
  }, 120_000);

  it("counterfactual (EO_TEST_UNSAFE_NO_REFUND_IN_FLIGHT_FACT=1): the row ends SUCCEEDED and the refund is never sent", async () => {
    // prepare: the switch is read on every call, by the handlers of both Regions in this process
    process.env.EO_TEST_UNSAFE_NO_REFUND_IN_FLIGHT_FACT = "1";
    // act
    const { cancelled, read, charges, refunds } = await refundInFlightAcrossFailover(
      stack(),
      new ChaosApi(stack().apiUrl),
    );
    // assess: the PSP and the ledger agree (charged, not refunded), so reconcile is silent: the lost refund
    expect(cancelled.body.state).toBe("REFUND_PENDING");
    expect(read.body.state).toBe("SUCCEEDED");
    expect(charges).toEqual([expect.objectContaining({ refunded: false })]);
    expect(refunds).toHaveLength(0);
  }, 120_000);
});
