import { observe, Progress, plannedSwitch } from "@eo/core/failover";
import { describe, expect, it } from "vitest";
import { memorySides } from "./support/memory-sides";

// How long the planned switch lets the new Region wait, from the numbers it reads (the sides are in memory).
const sides = (cloudwatchMs: number | undefined) => memorySides({ cloudwatchMs });

const settings = {
  canaryTimeoutMs: 1_000,
  drainFloorMs: 0,
  leaseWaitMs: 0,
  actWindowMs: 3_000,
  sleep: async () => {},
};

describe("a planned failover's wait before the new Region acts", () => {
  it("is the act window when replication is quick", async () => {
    const { sides: s, written } = sides(undefined);
    const t0 = Date.now();
    await plannedSwitch(new Progress(() => undefined), s, await observe(s), "primary", {}, settings);
    const from = (written[0]?.active_from ?? 0) - t0;
    expect(from).toBeGreaterThanOrEqual(3_000);
    expect(from).toBeLessThan(4_000);
    expect(written[0]).toMatchObject({ active: "standby", epoch: 2, drains: "primary" });
  });

  it("is 10 × CloudWatch's recent maximum ReplicationLatency when that is longer (AWS)", async () => {
    const { sides: s, written } = sides(2_000);
    const numbers: Record<string, number> = {};
    const t0 = Date.now();
    await plannedSwitch(new Progress(() => undefined), s, await observe(s), "primary", numbers, settings);
    expect((written[0]?.active_from ?? 0) - t0).toBeGreaterThanOrEqual(20_000);
    expect(numbers.replication_latency_max_ms).toBe(2_000);
  });
});
