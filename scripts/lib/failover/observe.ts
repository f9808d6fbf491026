import type { RegionControl, RegionRole } from "@eo/core";
import type { RegionSide } from "./region-side";

/** What both Regions' copies of the control say, and which Regions answered at all. */
export interface Observed {
  copies: Record<RegionRole, RegionControl | undefined>;
  reachable: Record<RegionRole, boolean>;
  /** The latest decision: the copy with the highest epoch. */
  latest: RegionControl | undefined;
}

/** Reads both copies; an unreachable Region is a finding, not an error. */
export async function observe(sides: Record<RegionRole, RegionSide>): Promise<Observed> {
  const read = async (role: RegionRole) => {
    try {
      return { ok: true, control: await sides[role].readControl() };
    } catch {
      return { ok: false, control: undefined };
    }
  };
  const [p, s] = await Promise.all([read("primary"), read("standby")]);
  const latest = [p.control, s.control].reduce<RegionControl | undefined>(
    (a, b) => ((b?.epoch ?? 0) > (a?.epoch ?? 0) ? b : a),
    undefined,
  );
  return {
    copies: { primary: p.control, standby: s.control },
    reachable: { primary: p.ok, standby: s.ok },
    latest,
  };
}

/** A control line for the output: `standby active, epoch 3 (failover at 03:12)`. */
export function describe(c: RegionControl | undefined): string {
  return c ? `${c.active} active, epoch ${c.epoch} (${c.reason})` : "no control record";
}
