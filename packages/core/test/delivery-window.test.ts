import { afterEach, describe, expect, it } from "vitest";
import { activeRegion, drainStopMs, type RegionControl, type RegionControlStore } from "../src";

const ACTIVE_FROM = 1_000_000;
const times = { controlCacheMs: 2_000, fenceCacheMs: 250, clockMarginMs: 250, deliveryTimeoutMs: 30_000 };
/** The authority after a planned failover primary → standby, with primary drained until the switch. */
const planned: RegionControl = {
  active: "standby",
  epoch: 2,
  updated_at: 0,
  reason: "planned",
  active_from: ACTIVE_FROM,
  drains: "primary",
};

/** The primary's gate at wall time `at` over an authority that answers `read`. */
function primaryAt(at: number, read: RegionControlStore["read"]) {
  return activeRegion("primary", { read, write: async () => true }, () => at, times);
}

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_DRAIN_UNTIL_SWITCH;
  delete process.env.EO_TEST_UNSAFE_RELAY_DROPS_UNREAD;
});

describe("delivery ends before the target starts", () => {
  it("stops the drained Region at active_from less its longest delivery, the read's age and the clock margin", async () => {
    // prepare
    const stop = drainStopMs(ACTIVE_FROM, times);
    // act
    const before = await primaryAt(stop - 1, async () => planned).mayDeliver();
    const after = await primaryAt(stop, async () => planned).mayDeliver();
    // assess
    expect(stop).toBe(ACTIVE_FROM - 30_000 - 2_000 - 250);
    expect(before).toBe(true);
    expect(after).toBe(false);
  });

  it("counterfactual (EO_TEST_UNSAFE_DRAIN_UNTIL_SWITCH): a delivery may start 1 ms before the switch and run on past it", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_DRAIN_UNTIL_SWITCH = "1";
    // act
    const late = await primaryAt(ACTIVE_FROM - 1, async () => planned).mayDeliver();
    // assess
    expect(late).toBe(true);
  });

  it("throws when the authority cannot be read, so that the relay's batch is retried, not dropped", async () => {
    // prepare
    const unreadable = async (): Promise<RegionControl> => {
      throw new Error("connection reset");
    };
    // act
    const answer = primaryAt(0, unreadable).mayDeliver();
    // assess
    await expect(answer).rejects.toThrow(/authority cannot be read/);
    process.env.EO_TEST_UNSAFE_RELAY_DROPS_UNREAD = "1";
    expect(await primaryAt(0, unreadable).mayDeliver()).toBe(false);
  });
});
