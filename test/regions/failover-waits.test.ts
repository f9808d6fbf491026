import { observe, Progress, plannedSwitch } from "@eo/core/failover";
import { afterEach, describe, expect, it } from "vitest";
import { clockSkewBounds, stampNowMs } from "../../packages/core/src/region/failover/authority-clock";
import { memorySides } from "./support/memory-sides";

// How long the planned switch lets the new Region wait, from the numbers it reads (the sides are in memory).
const sides = (cloudwatchMs: number | undefined, authorityAheadMs?: number) =>
  memorySides({ cloudwatchMs, ...(authorityAheadMs === undefined ? {} : { authorityAheadMs }) });

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

describe("the operator's laptop clock running 28 s slow", () => {
  afterEach(() => {
    delete process.env.EO_TEST_UNSAFE_OPERATOR_CLOCK_STAMP;
  });
  const aheadMs = 28_000;

  it("stamps active_from on the authority's side of the clock: the Regions still wait the whole act window", async () => {
    // prepare: the authority (and the Regions, on the same synchronised time) are 28 s ahead of this machine
    const { sides: s, written } = sides(undefined, aheadMs);
    const said: string[] = [];
    // act
    await plannedSwitch(new Progress((l) => said.push(l)), s, await observe(s), "primary", {}, settings);
    // assess: measured on the Regions' clock, the new Region acts no sooner than the act window after the fence
    const regionsNowAtFence = Date.now() + aheadMs;
    expect((written[0]?.active_from ?? 0) - regionsNowAtFence).toBeGreaterThanOrEqual(3_000 - 100);
    expect(said.join("\n")).toMatch(/clock is at least \d+ ms behind the authority's/);
  });

  it("without it (guard off) the window collapses: the new Region may act while the old one still does", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_OPERATOR_CLOCK_STAMP = "1";
    const { sides: s, written } = sides(undefined, aheadMs);
    // act
    await plannedSwitch(new Progress(() => undefined), s, await observe(s), "primary", {}, settings);
    // assess: active_from lies in the Regions' past, so the new Region acts at once
    expect(written[0]?.active_from ?? 0).toBeLessThan(Date.now() + aheadMs);
  });
});

describe("the authority's clock read from one reply", () => {
  it("bounds the skew by the Date header's second, and leaves a clock that agrees alone", () => {
    const reading = { serverDateMs: 1_000_000, sentMs: 999_700, receivedMs: 1_000_100 };
    expect(clockSkewBounds(reading)).toEqual({ lowMs: -100, highMs: 1_300 });
    expect(stampNowMs(reading, 1_000_200)).toBe(1_000_200);
    expect(stampNowMs({ serverDateMs: 1_030_000, sentMs: 1_000_000, receivedMs: 1_000_050 }, 1_000_100)).toBe(
      1_000_100 + 31_000,
    );
  });
});
