import { type FailoverSides, observe, Progress, plannedSwitch, type RegionSide } from "@eo/core/failover";
import { describe, expect, it } from "vitest";
import type { RegionControl } from "../../packages/core/src";

// How long the planned switch lets the new Region wait, from the numbers it reads (no AWS, no emulators: the sides
// are in memory; the arithmetic is what an on-call engineer relies on).
function sides(cloudwatchMs: number | undefined): { sides: FailoverSides; written: RegionControl[] } {
  let record: RegionControl | undefined = { active: "primary", epoch: 1, updated_at: 0, reason: "initial" };
  const written: RegionControl[] = [];
  const canaries = new Set<string>();
  const side = (role: "primary" | "standby"): RegionSide => ({
    role,
    region: role === "primary" ? "us-east-1" : "us-west-2",
    health: async () => ({ ok: true, detail: "in memory" }),
    writeCanary: async (id) => void canaries.add(id),
    hasCanary: async (id) => canaries.has(id),
    deleteCanary: async (id) => void canaries.delete(id),
    outboxBacklog: async () => 0,
    openClaims: async () => 0,
    unknownPayments: async () => 0,
    hasPayment: async () => true,
    runResolver: async () => ({}),
    runSweeps: async () => ({}),
    ...(cloudwatchMs === undefined ? {} : { recentReplicationLatencyMs: async () => cloudwatchMs }),
  });
  return {
    written,
    sides: {
      primary: side("primary"),
      standby: side("standby"),
      authority: {
        where: "memory",
        read: async () => record,
        write: async (next) => {
          if (record && record.epoch >= next.epoch) return false;
          record = next;
          written.push(next);
          return true;
        },
      },
    },
  };
}

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
