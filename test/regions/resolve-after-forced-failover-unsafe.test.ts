import { describe, expect, it } from "vitest";
import { ChaosApi } from "../../scripts/lib/chaos/chaos-api";
import { CHAOS_TWO_REGION_OPTIONS, chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import { useLocalStack } from "../support/local-stack";
import { resolveAfterForcedFailover } from "./support/forced-failover";

Object.assign(process.env, chaosEnv());

describe("counterfactual: resolve voids an absent key without asking the PSP", () => {
  const stack = useLocalStack({
    ...CHAOS_TWO_REGION_OPTIONS,
    standbyEnv: { EO_TEST_UNSAFE_VOID_WITHOUT_PSP_LOOKUP: "1" },
  });
  it("answers VOID for a key the PSP charged: the app's new key would be a second charge", async () => {
    // act
    const { first, answer, charged } = await resolveAfterForcedFailover(new ChaosApi(stack().apiUrl));
    // assess
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(charged).toBe(true);
    expect(answer.body.state).toBe("VOID");
  }, 120_000);
});
