import type { RegionRole } from "./config";
import type { ControlAuthority } from "./control-authority";
import type { RegionFunctions } from "./functions";
import { type OperatorRegionArns, operatorPolicyDocument } from "./operator-grants";
import type { RegionQueues } from "./queues";
import type { RegionTables } from "./tables";

/** The stage's resources the on-call policy names, by Region. */
export interface OperatorResources {
  tables: Record<RegionRole, RegionTables>;
  authority: ControlAuthority;
  queues: Record<RegionRole, RegionQueues>;
  functions: Record<RegionRole, RegionFunctions>;
}

/**
 * The `operatorPolicy` stage output: an IAM policy document with exactly the actions the operator scripts make
 * (stacks/operator-grants.ts), on exactly this stage's resources in both Regions. Nothing is created: the deployer
 * attaches it to the on-call role or group (docs/deploying.md: `aws iam create-policy … "$(jq -c .operatorPolicy …)"`).
 */
export function operatorPolicy(r: OperatorResources) {
  const arnsIn = (role: RegionRole) => {
    const fn = (id: string) => {
      const f = r.functions[role][id];
      if (!f) throw new Error(`no function ${id} in the ${role} Region`);
      return f.arn;
    };
    const q = r.queues[role];
    const t = r.tables[role];
    const arns = [r.authority.byRole[role].arn, t.ledger.arn, t.claims.arn, q.events.arn, q.eventsDlq.arn];
    const jobArns = [t.totals.arn, q.streamJobFailures.arn];
    return $util.all([...arns, ...jobArns, fn("Resolver"), fn("Sweeps")]).apply(
      ([authority, ledger, claims, eventsQueue, eventsDlq, totals, streamJobFailures, resolver, sweeps]) =>
        ({
          authority,
          ledger,
          claims,
          eventsQueue,
          eventsDlq,
          totals,
          streamJobFailures,
          resolver,
          sweeps,
        }) satisfies OperatorRegionArns,
    );
  };
  return $util
    .all([arnsIn("primary"), arnsIn("standby")])
    .apply(([primary, standby]) => operatorPolicyDocument({ primary, standby }));
}
