import type { RegionFunctions } from "./functions";
import type { RegionTables } from "./tables";

/** One Region's resources as `npm run failover` finds them in the stage's outputs (`.sst/outputs.json`). */
export function failoverTargets(region: string, tables: RegionTables, functions: RegionFunctions) {
  const fn = (id: string) => {
    const f = functions[id];
    if (!f) throw new Error(`no function ${id} in the Region's stack`);
    return f.name;
  };
  return {
    region,
    control: tables.control.name,
    claims: tables.claims.name,
    ledger: tables.ledger.name,
    resolver: fn("Resolver"),
    sweeps: fn("Sweeps"),
  };
}
