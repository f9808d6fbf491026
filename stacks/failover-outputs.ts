import type { InfraConfig, RegionRole } from "./config";
import { authorityOutput, type ControlAuthority, type ControlRef } from "./control-authority";
import type { RegionFunctions } from "./functions";
import type { RegionQueues } from "./queues";
import type { RegionTables } from "./tables";
import { tunableEnvironment } from "./tunable-environment";

/**
 * One Region's resources as the operator scripts (`failover`, `reconcile`, `resolve-unknowns`, `redrive-dlq`) find
 * them with `--stage` in the stage's outputs (`.sst/outputs.json`): names and URLs, never a secret.
 */
export function failoverTargets(
  region: string,
  tables: RegionTables,
  control: ControlRef,
  functions: RegionFunctions,
  queues: RegionQueues,
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
    consumer: tables.consumer.name,
    eventsQueue: queues.events.url,
    eventsDlq: queues.eventsDlq.url,
    // The stream job's sink and failure queue: `npm run recompute-totals` adds a skipped batch's events.
    totals: tables.totals.name,
    streamJobFailures: queues.streamJobFailures.url,
    resolver: fn("Resolver"),
    sweeps: fn("Sweeps"),
  };
}

/**
 * The `failover` stage output, which every operator script reads with `--stage <stage>`: the stage (a script
 * refuses another stage's file), the claim mode and tunables, each Region's targets, and where the authority lives.
 */
export function failoverOutputs(
  config: InfraConfig,
  tables: Record<RegionRole, RegionTables>,
  authority: ControlAuthority,
  functions: Record<RegionRole, RegionFunctions>,
  queues: Record<RegionRole, RegionQueues>,
) {
  const region = (role: RegionRole) =>
    failoverTargets(
      config.regions[role],
      tables[role],
      authority.byRole[role],
      functions[role],
      queues[role],
    );
  return {
    stage: config.stage,
    claimMode: config.claimMode,
    tunables: tunableEnvironment(config),
    primary: region("primary"),
    standby: region("standby"),
    authority: authorityOutput(authority),
  };
}
