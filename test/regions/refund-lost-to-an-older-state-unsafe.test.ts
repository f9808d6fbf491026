import { describe, expect, it } from "vitest";
import { ChaosApi } from "../../scripts/lib/chaos/chaos-api";
import { CHAOS_TWO_REGION_OPTIONS, chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import { useLocalStack } from "../support/local-stack";
import { refundLostToAnOlderState } from "./support/refund-lost-to-an-older-state";

// The counterfactual of refund-lost-to-an-older-state.test.ts, on a stack of its own: the switch is read by the
// primary's handlers in this process for the whole file.
Object.assign(process.env, chaosEnv(), { EO_TEST_UNSAFE_ROWS_LAST_WRITER_WINS: "1" });

describe("a refund lost to an older state, counterfactual: the row alone decides (last writer wins)", () => {
  const stack = useLocalStack(CHAOS_TWO_REGION_OPTIONS);

  it("counterfactual: the row read alone ends SUCCEEDED while the PSP says refunded", async () => {
    // act
    const { read, charges, journal } = await refundLostToAnOlderState(stack(), new ChaosApi(stack().apiUrl));
    // assess: four legs for what the ledger calls one success
    expect(read.body.state).toBe("SUCCEEDED");
    expect(charges).toEqual([expect.objectContaining({ refunded: true })]);
    expect(journal).toHaveLength(4);
  }, 180_000);
});
