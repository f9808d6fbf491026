import type { InfraConfig, RegionRole } from "./config";
import type { Secrets } from "./secrets";

// Kept apart from region.ts, which composes a Region from every stack: the stacks that only need a Region's name,
// provider and settings read them here, so none of them imports the composition back.

/** The AWS provider of each Region. */
export type RegionProviders = Record<RegionRole, aws.Provider>;

/** What a Region is before any of its resources: its role, its names' prefix, its provider and the settings. */
export interface RegionBase {
  role: RegionRole;
  /** Prefix of every component name of the Region, so that names stay unique across Regions. */
  prefix: "Primary" | "Standby";
  provider: aws.Provider;
  config: InfraConfig;
  secrets: Secrets;
}
