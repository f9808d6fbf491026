import type { RegionRole } from "../config/switches";
import { Refusal } from "../payment/payment-errors";
import type { RegionControl, RegionControlStore } from "./region-control";

/** What a Region's handlers know of the control: whether they are active, and under which epoch. */
export interface ActiveRegion {
  /** The control, reused for up to `controlCacheMs` (jobs and relays decide whether to run). */
  control(): Promise<RegionControl | undefined>;
  /** The control read now, for the resolver, whose rule on rows of earlier epochs needs today's epoch. */
  controlNow(): Promise<RegionControl | undefined>;
  isActive(): Promise<boolean>;
  /**
   * Refuses (503 region-passive) unless a read at most `fenceCacheMs` old says this Region is active; answers the
   * control read, whose epoch a durable guard carries.
   */
  assertActive(): Promise<RegionControl>;
}

/**
 * Reads the control of this Region's copy at run time. No record means passive: a Region that cannot tell
 * whether it is active must not take writes (fail closed); the stack writes the first record at deploy.
 */
export function activeRegion(
  role: RegionRole,
  store: RegionControlStore,
  now: () => number,
  cache: { controlCacheMs: number; fenceCacheMs: number },
): ActiveRegion {
  let cached: { at: number; control: RegionControl | undefined } | undefined;
  const read = async (maxAgeMs: number) => {
    const t = now();
    if (!cached || t - cached.at > maxAgeMs) cached = { at: t, control: await store.read() };
    return cached.control;
  };
  const activeIn = (c: RegionControl | undefined) => c?.active === role;
  return {
    control: () => read(cache.controlCacheMs),
    controlNow: () => read(0),
    isActive: async () => activeIn(await read(cache.controlCacheMs)),
    assertActive: async () => {
      const c = await read(cache.fenceCacheMs);
      if (c && activeIn(c)) return c;
      const why = c
        ? `the ${c.active} Region is active (epoch ${c.epoch})`
        : "no Region control record is readable here";
      throw new Refusal(
        "region-passive",
        `this Region (${role}) is passive: ${why}; send requests to the active Region`,
        1,
      );
    },
  };
}
