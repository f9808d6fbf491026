import type { RegionControl, RegionControlStore } from "../../../packages/core/src/region/region-control";

/** The Region control port's in-memory stand-in, whose record a test sets: what is tested is the gate in front of it. */
export function controlStore(start: RegionControl): RegionControlStore & { set(c: RegionControl): void } {
  let current = start;
  return {
    read: async () => current,
    write: async (next) => {
      current = next;
      return true;
    },
    set: (c) => {
      current = c;
    },
  };
}

/** A control record naming `active` under `epoch`, active at once. */
export const control = (active: "primary" | "standby", epoch: number): RegionControl => ({
  active,
  epoch,
  updated_at: 0,
  reason: "test",
});
