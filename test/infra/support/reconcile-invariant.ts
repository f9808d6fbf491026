/**
 * The nightly reconcile in AWS: its schedule in each Region, a function that can read the ledger and list the
 * PSP, and the two alarms (a discrepancy, and a night with no finished run). Held to the issue, not to the stacks.
 */
import type { CapturedResource, JsonObject } from "./capture";
import type { Invariant, View } from "./invariants";
import { arr, obj, str } from "./json";

const ROLES = ["primary", "standby"] as const;
const ALARM = "aws:cloudwatch/metricAlarm:MetricAlarm";

/** Contract: when it runs, how long it may take, and where its Powertools metrics land. */
export const RECONCILE = {
  handler: "packages/functions/src/cron/reconcile.handler",
  schedule: "cron(15 3 * * ? *)",
  minTimeoutS: 300,
  namespace: "EffectivelyOnce",
  dimensions: { service: "effectively-once" },
  discrepancies: "ReconcileDiscrepancies",
  runs: "ReconcileRuns",
} as const;

const DAY_S = 86_400;
const window = (a: CapturedResource) => Number(a.inputs.period) * Number(a.inputs.evaluationPeriods);

/** A Region's alarms on one of the reconcile's metrics (namespace and dimension as the handler publishes them). */
function alarmsOn(v: View, role: (typeof ROLES)[number], metric: string): CapturedResource[] {
  return v
    .ofType(ALARM)
    .filter(
      (a) =>
        v.regionOf(a) === v.region(role) &&
        a.inputs.metricName === metric &&
        a.inputs.namespace === RECONCILE.namespace &&
        JSON.stringify(a.inputs.dimensions) === JSON.stringify(RECONCILE.dimensions),
    );
}

function functionProblems(v: View, role: (typeof ROLES)[number]): string[] {
  const fns = v.functionsIn(role).filter((f) => f.inputs.handler === RECONCILE.handler);
  if (fns.length !== 1) return [`${role}: ${fns.length} functions run ${RECONCILE.handler}, expected 1`];
  const f = fns[0] as CapturedResource;
  const out: string[] = [];
  if (!(Number(f.inputs.timeout) >= RECONCILE.minTimeoutS))
    out.push(`${role}: the reconcile's timeout is ${f.inputs.timeout} s, too short to page through a day`);
  const env = v.env(f);
  if (!v.tableIn(role, "LEDGER_TABLE").arn || !env.LEDGER_TABLE)
    out.push(`${role}: the reconcile has no ledger table of its Region`);
  const key = v.expected.psp === "stripe" ? "StripeSecretKey" : "PspApiKey";
  if (v.expected.psp === "generic" && !env.PSP_URL) out.push(`${role}: the reconcile has no PSP_URL`);
  if (!(key in (v.linksOf(f) ?? {}))) out.push(`${role}: the reconcile is not linked to ${key}`);
  const schedules = v
    .ofType("aws:scheduler/schedule:Schedule")
    .filter((s) => obj(s.inputs.target).arn === f.state.arn);
  if (schedules.length !== 1) return [...out, `${role}: ${schedules.length} schedules invoke the reconcile`];
  const s = schedules[0] as CapturedResource;
  if (s.inputs.scheduleExpression !== RECONCILE.schedule)
    out.push(`${role}: the reconcile runs on ${s.inputs.scheduleExpression}, expected ${RECONCILE.schedule}`);
  const tz = str(s.inputs.scheduleExpressionTimezone);
  if (tz && tz !== "UTC") out.push(`${role}: the reconcile's schedule is in ${tz}, not UTC`);
  if (s.inputs.state !== "ENABLED") out.push(`${role}: the reconcile's schedule is ${s.inputs.state}`);
  if (v.regionOf(s) !== v.region(role)) out.push(`${role}: the reconcile's schedule is in ${v.regionOf(s)}`);
  return out;
}

type Query = { id: string; expression?: string; returnData?: boolean; metric: JsonObject };

/** A metric-math alarm's queries, by id. */
function queriesOf(a: CapturedResource): Map<string, Query> {
  const queries = arr(a.inputs.metricQueries).map((q) => {
    const o = obj(q);
    return {
      id: String(o.id),
      expression: str(o.expression),
      returnData: o.returnData === true,
      metric: obj(o.metric),
    };
  });
  return new Map(queries.map((q) => [q.id, q]));
}

/** The ids a query's value depends on, itself included (through the expressions it names). */
function dependsOn(queries: Map<string, Query>, id: string, seen = new Set<string>()): Set<string> {
  if (seen.has(id)) return seen;
  seen.add(id);
  for (const word of queries.get(id)?.expression?.match(/[a-z]\w*/g) ?? []) {
    if (queries.has(word)) dependsOn(queries, word, seen);
  }
  return seen;
}

/**
 * The not-run alarm: the hours in which no run finished, counted only while the Region's resolver ran (every minute,
 * from the first deploy), so that a new stage does not sit in ALARM until its first night and a stage whose runs
 * stopped pages after 26 live hours. Its value is a metric-math expression over ReconcileRuns and the resolver's
 * Invocations; missing hours (no resolver yet) are not breaching.
 */
function notRunProblems(v: View, role: (typeof ROLES)[number]): string[] {
  const resolver = str(v.fn(role, "Resolver")?.state.name);
  const candidates = v
    .ofType(ALARM)
    .filter((a) => v.regionOf(a) === v.region(role) && a.inputs.metricQueries);
  const shaped = candidates.filter((a) => {
    const queries = queriesOf(a);
    const returned = [...queries.values()].filter((q) => q.returnData);
    if (returned.length !== 1 || !returned[0]?.expression) return false;
    const uses = [...dependsOn(queries, returned[0].id)].map((id) => queries.get(id)?.metric ?? {});
    const runs = uses.some(
      (m) =>
        m.metricName === RECONCILE.runs &&
        m.namespace === RECONCILE.namespace &&
        JSON.stringify(m.dimensions) === JSON.stringify(RECONCILE.dimensions),
    );
    const live = uses.some(
      (m) =>
        m.namespace === "AWS/Lambda" &&
        m.metricName === "Invocations" &&
        obj(m.dimensions).FunctionName === resolver,
    );
    const period = Math.max(0, ...uses.map((m) => Number(m.period ?? 0)));
    const hours = Number(a.inputs.evaluationPeriods);
    const windowS = period * hours;
    return (
      runs &&
      live &&
      a.inputs.comparisonOperator === "LessThanThreshold" &&
      a.inputs.threshold === 1 &&
      Number(a.inputs.datapointsToAlarm) === hours &&
      windowS > DAY_S &&
      windowS <= 2 * DAY_S
    );
  });
  if (shaped.length !== 1)
    return [
      `${role}: no alarm when no reconcile finished for a day while the Region's resolver ran (found ${shaped.length})`,
    ];
  const alarm = shaped[0] as CapturedResource;
  if (alarm.inputs.treatMissingData !== "notBreaching")
    return [
      `${role}: the not-run alarm treats missing data as ${alarm.inputs.treatMissingData ?? "missing"}: ` +
        "it sits in ALARM (or INSUFFICIENT_DATA) from the first deploy until the first nightly run",
    ];
  return [];
}

function alarmProblems(v: View, role: (typeof ROLES)[number]): string[] {
  const out: string[] = [];
  const found = alarmsOn(v, role, RECONCILE.discrepancies);
  const discrepancy = found.find(
    (a) =>
      a.inputs.comparisonOperator === "GreaterThanThreshold" &&
      a.inputs.threshold === 0 &&
      window(a) >= DAY_S &&
      Number(a.inputs.datapointsToAlarm ?? a.inputs.evaluationPeriods) === 1,
  );
  if (!discrepancy)
    out.push(`${role}: no alarm on any ${RECONCILE.discrepancies} > 0 over a day (found ${found.length})`);
  return [...out, ...notRunProblems(v, role)];
}

/** Each Region runs the nightly reconcile at 03:15 UTC and alarms on a discrepancy and on a night without a run. */
export const nightlyReconcile: Invariant = {
  name: "the nightly reconcile's schedule, function and alarms in each Region",
  check(v) {
    return ROLES.flatMap((role) => [...functionProblems(v, role), ...alarmProblems(v, role)]);
  },
};
