import { describe, expect, it } from "vitest";
import { DRILLS } from "../../packages/local/src/drills/drills";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";
import { DRILL_TEST_LAG_MS } from "./support/drills";

// CLAIM_MODE=mrsc: the claim table is one strongly consistent store seen by both Regions (Part 9's second fix).
const stack = useLocalStack({ ...DRILLS["F2-mrsc"]?.stack, replicationLagMs: DRILL_TEST_LAG_MS });

describe("branch F2 with an MRSC claim store", () => {
  it("even with both Regions active, A1′ finds A1's claim in progress: 409, one charge, one credit, one receipt", async () => {
    const result = await DRILLS["F2-mrsc"]?.run(stack());
    expect(result?.timeline.entries.find((e) => e.actor === "phone A1′")?.event).toMatch(/→ 409/);
    expect(result?.matchesSeed, JSON.stringify(result?.count)).toBe(true);
    expect(result?.count.emails).toBe(1);
  }, 120_000);

  it("answers a write that races another Region's (ReplicatedWriteConflictException) with 409 and Retry-After", async () => {
    // prepare
    const api = new ApiClient(stack().apiUrl);
    const token = await api.token("u-mrsc");
    await api.local("POST", "/faults", { mrsc_write_conflict: 1 });
    // act
    const raced = await api.pay(token, newKey(), order42());
    // assess
    expect(raced.status).toBe(409);
    expect(raced.headers.get("retry-after")).toBe("1");
    expect(String(raced.body.detail)).toMatch(/another Region is writing this key/);
  });
});
