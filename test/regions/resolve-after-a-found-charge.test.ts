import { afterEach, describe, expect, it } from "vitest";
import { ChaosApi } from "../../scripts/lib/chaos/chaos-api";
import { CHAOS_TWO_REGION_OPTIONS, chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import { useLocalStack } from "../support/local-stack";
import { resolveAfterAFoundCharge } from "./support/resolve-after-a-found-charge";

Object.assign(process.env, chaosEnv());

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_FORGET_PSP_FIND;
});

// One stack for both: the first trace fails the primary over to the standby, the second fails the standby back to
// the primary, whose handlers run in this process and so read the switch the counterfactual sets.
describe("a lagging lookup after one that found the charge (seed 99, schedule 351)", () => {
  const stack = useLocalStack(CHAOS_TWO_REGION_OPTIONS);

  it("answers SUCCEEDED again, from what the first resolve kept, not PROCESSING", async () => {
    // act
    const { died, found, again, paymentId } = await resolveAfterAFoundCharge(new ChaosApi(stack().apiUrl));
    // assess
    expect(died.status, JSON.stringify(died.body)).toBe(500);
    expect(found.body).toMatchObject({ state: "SUCCEEDED", payment_id: paymentId });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ state: "SUCCEEDED", payment_id: paymentId });
  }, 120_000);

  it("counterfactual (EO_TEST_UNSAFE_FORGET_PSP_FIND=1): the lagging lookup takes the app's SUCCEEDED back", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_FORGET_PSP_FIND = "1";
    // act
    const { died, found, again } = await resolveAfterAFoundCharge(new ChaosApi(stack().apiUrl));
    // assess
    expect(died.status, JSON.stringify(died.body)).toBe(500);
    expect(found.body.state).toBe("SUCCEEDED");
    expect(again.body.state).toBe("PROCESSING");
  }, 120_000);
});
