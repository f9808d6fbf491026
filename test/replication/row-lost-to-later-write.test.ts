import { afterEach, describe, expect, it } from "vitest";
import { CHAOS_STACK_OPTIONS, chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import { useLocalStack } from "../support/local-stack";
import { resolverAfterLostRowWrite } from "./support/row-lost-to-later-write";

Object.assign(process.env, chaosEnv());

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_NO_ROW_CATCH_UP;
});

describe("a settled row lost to a later write in the other Region (Part 9, found by the fault checker)", () => {
  const stack = useLocalStack(CHAOS_STACK_OPTIONS);

  it("the resolver moves the row to SUCCEEDED alone: the replicated journal stands, one credit", async () => {
    // act
    const { first, row, journal, merchantView } = await resolverAfterLostRowWrite(stack());
    // assess
    expect(first.status).toBe(202);
    expect(row?.state).toBe("SUCCEEDED");
    expect(journal).toHaveLength(2);
    expect(merchantView).toMatchObject({ credits: 1, balance: 4_200 });
  }, 60_000);

  it("counterfactual: without the catch-up, the move fails on the journal for ever and the row stays UNKNOWN", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_ROW_CATCH_UP = "1";
    // act
    const { first, row, merchantView } = await resolverAfterLostRowWrite(stack());
    // assess
    expect(first.status).toBe(202);
    expect(row?.state).toBe("UNKNOWN");
    expect(merchantView.credits).toBe(0);
  }, 60_000);
});
