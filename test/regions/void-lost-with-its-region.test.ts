import { afterEach, describe, expect, it } from "vitest";
import { ChaosApi } from "../../scripts/lib/chaos/chaos-api";
import { CHAOS_TWO_REGION_OPTIONS, chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import { useLocalStack } from "../support/local-stack";
import { voidLostWithItsRegion } from "./support/forced-failover";

Object.assign(process.env, chaosEnv());

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_REPLAY_INHERITED_ROW;
});

describe("a void lost with its Region's last second (Part 9, found by the fault checker)", () => {
  const stack = useLocalStack(CHAOS_TWO_REGION_OPTIONS);

  it("the resolver only looks up the row that crossed the failovers: one charge for the order, the old row FAILED", async () => {
    // act
    const { died, voided, paid, orphan, charged } = await voidLostWithItsRegion(new ChaosApi(stack().apiUrl));
    // assess
    expect(died.status).toBe(500);
    expect(voided.body.state).toBe("VOID");
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(charged).toEqual([paid.body.payment_id]);
    expect(orphan.body.state).toBe("FAILED");
  }, 180_000);

  it("counterfactual: replaying the inherited row's charge charges the order twice", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_REPLAY_INHERITED_ROW = "1";
    // act
    const { paid, orphan, charged } = await voidLostWithItsRegion(new ChaosApi(stack().apiUrl));
    // assess
    expect(charged).toHaveLength(2);
    expect(charged).toContain(paid.body.payment_id);
    expect(orphan.body.state).toBe("SUCCEEDED");
  }, 180_000);
});
