import type { ChaosApi } from "./chaos-api";

/** A local Region, as the checker and the nemesis know it. */
export type Role = "primary" | "standby";
export const ROLES: readonly Role[] = ["primary", "standby"];
export const otherRole = (r: Role): Role => (r === "primary" ? "standby" : "primary");

/** One Region of `GET /_local/resources`: its API (null when it does not run), tables and queues. */
export interface RegionResources {
  region: string;
  api: string | null;
  tables: { ledger: string };
  queues: Record<string, string>;
}

/** `GET /_local/resources`: where the emulators are, and each Region's API, tables and queues. */
export interface ChaosResources {
  endpoints: { dynamodb: string; sqs: string };
  credentials: { accessKeyId: string; secretAccessKey: string };
  regions: Record<Role, RegionResources>;
}

/** `GET /_local/regions`: which Region is active, who is up, and what replication has not shipped yet. */
export interface RegionsView {
  active?: Role;
  epoch?: number;
  regions: Record<Role, { up: boolean; partitioned?: boolean }>;
  /** `idle`: nothing queued, being applied or left unread in a stream (both Regions hold the same writes). */
  replication: { pending: number; idle: boolean; lag_ms: number; running: boolean };
}

/** The stack's resources and Regions, read together: what every observation and the nemesis start from. */
export async function readRegions(api: ChaosApi): Promise<{ res: ChaosResources; view: RegionsView }> {
  const [res, view] = await Promise.all([
    api.local<ChaosResources>("GET", "/resources"),
    api.local<RegionsView>("GET", "/regions"),
  ]);
  return { res, view };
}

/** The Regions whose API runs (one, or both when the standby runs). */
export const runningRoles = (res: ChaosResources): Role[] => ROLES.filter((r) => res.regions[r].api);

/** The active Region (the primary while no control names one). */
export const activeRole = (view: RegionsView): Role => view.active ?? "primary";
