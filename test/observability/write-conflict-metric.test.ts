/**
 * CLAIM_MODE=mrsc: a claim write that races another Region's (ReplicatedWriteConflictException) is answered 409
 * and counted, since many of them mean both Regions take the same keys (the alarm ReplicatedWriteConflicts).
 */
import { afterAll, describe, expect, it } from "vitest";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { watchEmf } from "../support/emf";
import { useLocalStack } from "../support/local-stack";

const emf = watchEmf();
const stack = useLocalStack({ claimMode: "mrsc" });
afterAll(() => emf.stop());

describe("replicated write conflicts", () => {
  it("counts a claim write that lost a race with the other Region, answered 409 in-progress", async () => {
    // prepare
    const api = new ApiClient(stack().apiUrl);
    const token = await api.token("u-conflict");
    await api.local("POST", "/faults", { mrsc_write_conflict: 1 });
    emf.clear();
    // act
    const raced = await api.pay(token, newKey(), order42());
    // assess
    expect(raced.status).toBe(409);
    expect(emf.of("ReplicatedWriteConflicts").map((m) => m.value)).toEqual([1]);
    expect(emf.of("PaymentAnswers", { Status: "409", Kind: "in-progress" })).toHaveLength(1);
  });
});
