/**
 * The operator's view of a stage (issue 27, items 2 and 3): the `failover` output, which every operator script reads
 * with `--stage`, names what that Region's resolver function is configured with (tables, queues, tunables) and its
 * jobs; and the `operatorPolicy` output grants the on-call grants on exactly this stage's resources, both Regions.
 */
import { parseStageOutputs } from "../../../scripts/lib/target/stage-target";
import type { Target } from "../../../scripts/lib/target/target";
import { actsOnTheAuthority } from "../../../stacks/act-window";
import { handlers } from "../../../stacks/handlers";
import { type OperatorRegionArns, operatorPolicyDocument } from "../../../stacks/operator-grants";
import type { Json } from "./capture";
import type { Invariant, View } from "./invariants";
import { arr, obj, str } from "./json";

const ROLES = ["primary", "standby"] as const;
type Role = (typeof ROLES)[number];

/** Which of the resolver function's variables each entry of a Region's outputs must equal. */
const SAME_AS_RESOLVER_ENV = {
  control: "CONTROL_TABLE",
  claims: "CLAIM_TABLE",
  ledger: "LEDGER_TABLE",
  consumer: "CONSUMER_TABLE",
  eventsQueue: "EVENTS_QUEUE_URL",
  eventsDlq: "EVENTS_DLQ_URL",
} as const;

function targetProblems(v: View, t: Target): string[] {
  const out: string[] = [];
  if (t.stage !== v.capture.app.stage)
    out.push(`outputs: failover.stage is ${t.stage}, not ${v.capture.app.stage}`);
  if (t.claimMode !== v.expected.claimMode) out.push(`outputs: failover.claimMode is ${t.claimMode}`);
  for (const role of ROLES) {
    const r = t.regions[role];
    const resolver = v.fn(role, "Resolver");
    const env = resolver ? v.env(resolver) : {};
    if (r.region !== v.region(role)) out.push(`outputs: failover.${role}.region is ${r.region}`);
    for (const [key, name] of Object.entries(SAME_AS_RESOLVER_ENV)) {
      const got = r[key as keyof typeof SAME_AS_RESOLVER_ENV];
      if (got !== env[name])
        out.push(`outputs: failover.${role}.${key} is ${got}, the resolver's ${name} is ${env[name]}`);
    }
    for (const [key, id] of [
      ["resolver", "Resolver"],
      ["sweeps", "Sweeps"],
    ] as const) {
      const name = str(v.fn(role, id)?.state.name);
      if (r[key] !== name)
        out.push(`outputs: failover.${role}.${key} is ${r[key]}, not the ${id} function ${name}`);
    }
    for (const [name, value] of Object.entries(t.tunables))
      if (env[name] !== value)
        out.push(`outputs: failover.tunables.${name} is ${value}, the ${role} resolver's is ${env[name]}`);
    out.push(...actWindowProblems(v, t, role));
  }
  return out;
}

/**
 * The act window the failover waits out (issue 40, item 6) covers every deployed function that acts on the
 * authority: its FUNCTION_TIMEOUT_MS is at least each one's timeout as deployed, not the tunables' default.
 */
function actWindowProblems(v: View, t: Target, role: Role): string[] {
  const windowMs = Number(t.tunables.FUNCTION_TIMEOUT_MS);
  const out: string[] = [];
  for (const h of handlers.filter(actsOnTheAuthority)) {
    const timeoutS = Number(v.fn(role, h.id)?.inputs.timeout);
    if (!(windowMs >= timeoutS * 1000))
      out.push(
        `outputs: failover.tunables.FUNCTION_TIMEOUT_MS is ${t.tunables.FUNCTION_TIMEOUT_MS}, shorter than the ${role} ${h.id}'s ${timeoutS} s timeout`,
      );
  }
  return out;
}

/** A table's ARN as a Region reaches it: its own, its replica's there, or (one table elsewhere) its only one. */
function tableArn(v: View, name: string, role: Role): string | undefined {
  const table = v.table(name);
  if (!table) return undefined;
  const replica = arr(table.state.replicas)
    .map(obj)
    .find((r) => r.regionName === v.region(role));
  return v.regionOf(table) === v.region(role) || !replica ? str(table.state.arn) : str(replica.arn);
}

/** The ARNs the policy must name in one Region, found in the capture from the Region's outputs. */
function arnsIn(v: View, t: Target, role: Role): OperatorRegionArns {
  const r = t.regions[role];
  const queue = (url: string) =>
    str(v.ofType("aws:sqs/queue:Queue").find((q) => q.state.url === url)?.state.arn);
  return {
    authority: tableArn(v, r.control, role) ?? "(no authority)",
    ledger: tableArn(v, r.ledger, role) ?? "(no ledger)",
    claims: tableArn(v, r.claims, role) ?? "(no claims)",
    eventsQueue: queue(r.eventsQueue) ?? "(no events queue)",
    eventsDlq: queue(r.eventsDlq) ?? "(no events DLQ)",
    totals: str(v.table(r.totals)?.state.arn) ?? "(no totals table)",
    streamJobFailures: queue(r.streamJobFailures ?? "") ?? "(no stream-job failures queue)",
    resolver: str(v.fn(role, "Resolver")?.state.arn) ?? "(no resolver)",
    sweeps: str(v.fn(role, "Sweeps")?.state.arn) ?? "(no sweeps)",
  };
}

function policyProblems(v: View, t: Target): string[] {
  const got = obj(obj(v.capture.outputs).operatorPolicy as Json);
  const want = operatorPolicyDocument({ primary: arnsIn(v, t, "primary"), standby: arnsIn(v, t, "standby") });
  const out: string[] = [];
  const gotStatements = arr(got.Statement).map(obj);
  for (const st of want.Statement) {
    const found = gotStatements.find((g) => g.Sid === st.Sid);
    if (JSON.stringify(found) !== JSON.stringify(st))
      out.push(
        `outputs: operatorPolicy ${st.Sid} is ${JSON.stringify(found)}, expected ${JSON.stringify(st)}`,
      );
  }
  if (gotStatements.length !== want.Statement.length || got.Version !== want.Version)
    out.push(`outputs: operatorPolicy has ${gotStatements.length} statements (${String(got.Version)})`);
  return out;
}

/** The scripts' target and the on-call policy, read from the stage outputs as the scripts read them. */
export const operatorOutputs: Invariant = {
  name: "the operator scripts' stage outputs and the on-call policy name this stage's resources",
  check(v) {
    let t: Target;
    try {
      t = parseStageOutputs(v.capture.outputs, "outputs");
    } catch (err) {
      return [(err as Error).message];
    }
    return [...targetProblems(v, t), ...policyProblems(v, t)];
  },
};
