import { describe, expect, it } from "vitest";
import { ChaosApi } from "../../scripts/lib/chaos/chaos-api";
import { CHAOS_TWO_REGION_OPTIONS, chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import { useLocalStack } from "../support/local-stack";
import { resolveAfterForcedFailover } from "./support/forced-failover";

Object.assign(process.env, chaosEnv());

describe("resolve after a forced failover (Part 9, found by the fault checker)", () => {
  const stack = useLocalStack(CHAOS_TWO_REGION_OPTIONS);
  it("answers SUCCEEDED from the PSP for a key the old Region charged in its last second, not VOID", async () => {
    // act
    const { first, answer, charged } = await resolveAfterForcedFailover(new ChaosApi(stack().apiUrl));
    // assess: the PSP holds the charge, so "make a new key" would charge twice
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(charged).toBe(true);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ state: "SUCCEEDED", payment_id: first.body.payment_id });
  }, 120_000);
});
