import type { RegionRole } from "../../config/switches";
import type { RegionControl } from "../region-control";
import type { FailoverSides } from "./region-side";

/** What the authority says, whether it answered, and which Regions answered at all. */
export interface Observed {
  authority: RegionControl | undefined;
  /** Why the authority could not be read; undefined when it answered. */
  authorityError?: string;
  reachable: Record<RegionRole, boolean>;
  health: Record<RegionRole, string>;
}

/** Reads the authority and asks both Regions whether they answer; an unreachable Region is a finding, not an error. */
export async function observe(sides: FailoverSides): Promise<Observed> {
  const health = async (role: RegionRole) => {
    try {
      const h = await sides[role].health();
      return { ok: h.ok, detail: h.detail };
    } catch (err) {
      return { ok: false, detail: (err as Error).message };
    }
  };
  const [authority, p, s] = await Promise.all([
    sides.authority.read().then(
      (c) => ({ c, error: undefined }),
      (err: unknown) => ({ c: undefined, error: (err as Error).message ?? String(err) }),
    ),
    health("primary"),
    health("standby"),
  ]);
  return {
    authority: authority.c,
    ...(authority.error !== undefined ? { authorityError: authority.error } : {}),
    reachable: { primary: p.ok, standby: s.ok },
    health: { primary: p.detail, standby: s.detail },
  };
}

/** A control line for the output: `standby active, epoch 3 (failover at 03:12)`. */
export function describe(c: RegionControl | undefined): string {
  if (!c) return "no control record";
  const from =
    c.active_from && c.active_from > Date.now() ? ` from ${new Date(c.active_from).toISOString()}` : "";
  return `${c.active} active${from}, epoch ${c.epoch} (${c.reason})`;
}
