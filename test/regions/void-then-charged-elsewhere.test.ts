import { afterEach, describe, expect, it } from "vitest";
import { ChaosApi } from "../../scripts/lib/chaos/chaos-api";
import { CHAOS_TWO_REGION_OPTIONS, chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import { useLocalStack } from "../support/local-stack";
import { voidThenChargedElsewhere } from "./support/forced-failover";

Object.assign(process.env, chaosEnv());

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_TRUST_INHERITED_VOID;
});

describe("a tombstone lost with its Region, the key charged elsewhere (Part 9, found by the fault checker)", () => {
  const stack = useLocalStack(CHAOS_TWO_REGION_OPTIONS);

  it("asks the PSP before it answers VOID from an earlier epoch's tombstone: SUCCEEDED, and no new key", async () => {
    // act
    const { voided, again, paid, charged, references } = await voidThenChargedElsewhere(
      new ChaosApi(stack().apiUrl),
    );
    // assess
    expect(voided.body.state).toBe("VOID");
    expect(again.body, JSON.stringify(again.body)).toMatchObject({
      state: "SUCCEEDED",
      payment_id: references[0],
    });
    expect(paid).toBeUndefined();
    expect(charged).toEqual([references[0]]);
  }, 180_000);

  it("counterfactual: trusting the inherited tombstone answers VOID and the new key charges the order twice", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_TRUST_INHERITED_VOID = "1";
    // act
    const { again, paid, charged } = await voidThenChargedElsewhere(new ChaosApi(stack().apiUrl));
    // assess
    expect(again.body.state).toBe("VOID");
    expect(paid?.status).toBe(201);
    expect(charged).toHaveLength(2);
  }, 180_000);
});
