import type { RegionRole } from "@eo/core";
import type { LocalTargets } from "../../../packages/local/src/region/local-sides";
import type { Target } from "../target/target";

/** The failover's view of the local stack as the shared target finds it (`--local`: its ports). */
export function localTargetsOf(t: Target): LocalTargets {
  const api = (role: RegionRole) => t.regions[role].api ?? "";
  if (!t.local) throw new Error(`${t.where} is not the local stack`);
  return {
    dynamodb: t.local.dynamodb,
    apis: { primary: api("primary"), standby: api("standby") },
    regions: { primary: t.regions.primary.region, standby: t.regions.standby.region },
    authorityRegion: t.authority.regions[0],
  };
}
