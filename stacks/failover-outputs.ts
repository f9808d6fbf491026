import { authorityOutput, type ControlAuthority, type ControlRef } from "./control-authority";
import type { RegionFunctions } from "./functions";
import type { RegionTables } from "./tables";

/** One Region's resources as `npm run failover` finds them in the stage's outputs (`.sst/outputs.json`). */
export function failoverTargets(
  region: string,
  tables: RegionTables,
  control: ControlRef,
  functions: RegionFunctions,
) {
  const fn = (id: string) => {
    const f = functions[id];
    if (!f) throw new Error(`no function ${id} in the Region's stack`);
    return f.name;
  };
  return {
    region,
    // The authority's table name, the same in both Regions (kept per Region for the readers of this shape).
    control: control.name,
    claims: tables.claims.name,
    ledger: tables.ledger.name,
    resolver: fn("Resolver"),
    sweeps: fn("Sweeps"),
  };
}

/** The `failover` stage output: each Region's targets and where the authority lives (`authority`). */
export function failoverOutputs(
  regions: { primary: string; standby: string },
  tables: Record<"primary" | "standby", RegionTables>,
  authority: ControlAuthority,
  functions: Record<"primary" | "standby", RegionFunctions>,
) {
  return {
    primary: failoverTargets(regions.primary, tables.primary, authority.byRole.primary, functions.primary),
    standby: failoverTargets(regions.standby, tables.standby, authority.byRole.standby, functions.standby),
    authority: authorityOutput(authority),
  };
}
