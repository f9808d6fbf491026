import type { RegionRole } from "@eo/core";

/** The parts of `/_local/regions` the warnings read. */
export interface RegionsSeen {
  authority: { active?: string; epoch?: number; reachable_from: Record<string, boolean> };
  regions: Record<
    string,
    { up: boolean; acts_as: string; control: { active?: string; epoch?: number } | null }
  >;
}

const ROLES: readonly RegionRole[] = ["primary", "standby"];

/**
 * The ways the Regions' views and the authority disagree, in words for the on-call engineer: the Region the
 * authority names is down or cut off (a failover is due), a Region's own copy names another Region or epoch, or
 * two Regions act as active. Empty when they agree.
 */
export function regionDisagreements(seen: RegionsSeen): string[] {
  const a = seen.authority;
  if (a.active === undefined) return ["the authority cannot be read: every Region is passive"];
  const out: string[] = [];
  const named = seen.regions[a.active];
  if (named && !named.up) out.push(`the authority names ${a.active} active, but ${a.active} is down`);
  else if (named && a.reachable_from[a.active] === false)
    out.push(`the authority names ${a.active} active, but ${a.active} cannot reach it`);
  for (const role of ROLES) {
    const copy = seen.regions[role]?.control;
    if (!copy || !seen.regions[role]?.up) continue;
    if (copy.active !== a.active || copy.epoch !== a.epoch)
      out.push(
        `${role}'s own copy names ${copy.active} (epoch ${copy.epoch}); the authority names ${a.active} (epoch ${a.epoch})`,
      );
  }
  const active = ROLES.filter((r) => seen.regions[r]?.acts_as === "active");
  if (active.length > 1) out.push(`both Regions act as active`);
  return out;
}
