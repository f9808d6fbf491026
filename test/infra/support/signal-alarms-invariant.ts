/**
 * Every on-call signal pages in both Regions: for each signal of stacks/on-call-signals.ts (and each function or
 * global table where it says so) an alarm of that Region on that metric, with the list's threshold, period and
 * missing-data rule, the Region's on-call topic as its ALARM and OK action and a description naming its runbook
 * entry. The metrics the issue names are held to the issue itself (ISSUE_METRICS), not to the list.
 */
import { handlers } from "../../../stacks/handlers";
import { alarmName, ON_CALL_SIGNALS, type OnCallSignal } from "../../../stacks/on-call-signals";
import type { CapturedResource, Json } from "./capture";
import type { Invariant, View } from "./invariants";
import { arr, obj, str } from "./json";
import { onCallTopic } from "./on-call-invariant";

const ROLES = ["primary", "standby"] as const;
type Role = (typeof ROLES)[number];
const ALARM = "aws:cloudwatch/metricAlarm:MetricAlarm";
const prefixOf = (role: Role) => (role === "primary" ? "Primary" : "Standby");

/** The metrics the issue asks an alarm on (in every Region; per function where it says so). */
export const ISSUE_METRICS: Array<{ namespace: string; name: string; perFunction?: true; mrscOnly?: true }> =
  [
    { namespace: "AWS/ApiGateway", name: "5xx" },
    { namespace: "AWS/Lambda", name: "Errors", perFunction: true },
    { namespace: "AWS/Lambda", name: "Throttles", perFunction: true },
    { namespace: "AWS/Lambda", name: "IteratorAge" },
    { namespace: "AWS/SQS", name: "ApproximateAgeOfOldestMessage" },
    { namespace: "AWS/DynamoDB", name: "ReplicationLatency" },
    { namespace: "EffectivelyOnce", name: "UnknownOldestAgeS" },
    { namespace: "EffectivelyOnce", name: "PaymentAnomalies" },
    { namespace: "EffectivelyOnce", name: "DlqArrivals" },
    { namespace: "EffectivelyOnce", name: "NotificationsFailedPermanently" },
    { namespace: "EffectivelyOnce", name: "AuthorityReadFailures" },
    { namespace: "EffectivelyOnce", name: "PspBudgetRefused" },
    { namespace: "EffectivelyOnce", name: "ReplicatedWriteConflicts", mrscOnly: true },
  ];

const inMode = (v: View) =>
  ON_CALL_SIGNALS.filter((s) => !s.claimMode || s.claimMode === v.expected.claimMode);
const deployed = (v: View) => inMode(v).filter((s) => !s.builtBy);
/** The alarms a module builds itself (metric math): their settings are that module's check, their page is ours. */
const builtElsewhere = (v: View) => inMode(v).filter((s) => s.builtBy);

/** The alarm names a signal has in a Region: one, or one per function, per global table. */
function namesOf(v: View, role: Role, s: OnCallSignal): string[] {
  const prefix = prefixOf(role);
  if (s.target === "each-function")
    return v
      .functionsIn(role)
      .map((f) => alarmName(prefix, s, f.name.replace(prefix, "").replace(/Function$/, "")));
  if (s.target === "global-tables") return ["Ledger", "Consumer"].map((t) => alarmName(prefix, s, t));
  if (s.target === "stream-consumers")
    return handlers.filter((h) => h.trigger.kind === "ledger-stream").map((h) => alarmName(prefix, s, h.id));
  return [alarmName(prefix, s)];
}

const mismatches = (name: string, got: Record<string, unknown>, want: Record<string, unknown>) =>
  Object.entries(want)
    .filter(([k, value]) => got[k] !== value)
    .map(([k, value]) => `${name} has ${k} ${JSON.stringify(got[k])}, expected ${JSON.stringify(value)}`);

function runbookProblems(a: CapturedResource, s: OnCallSignal): string[] {
  return str(a.inputs.alarmDescription)?.includes(`runbook docs/runbook.md: "${s.runbook}"`)
    ? []
    : [`${a.name}'s description does not name its runbook entry "${s.runbook}"`];
}

function settingsProblems(a: CapturedResource, s: OnCallSignal): string[] {
  const metric = s.whileWritten ? whileWrittenMetric(a) : a.inputs;
  const out = [
    ...mismatches(a.name, metric, {
      namespace: s.namespace,
      metricName: s.name,
      statistic: s.statistic,
      period: s.periodS,
    }),
    ...mismatches(a.name, a.inputs, {
      evaluationPeriods: s.evaluationPeriods,
      comparisonOperator: s.comparison,
      threshold: s.threshold,
      treatMissingData: s.missingData,
    }),
  ];
  const dims = Object.keys(obj(metric.dimensions as Json)).sort();
  if (JSON.stringify(dims) !== JSON.stringify([...s.dimensions].sort()))
    out.push(`${a.name} has dimensions [${dims.join(", ")}], expected [${s.dimensions.join(", ")}]`);
  return [...out, ...runbookProblems(a, s)];
}

/**
 * The metric of an alarm judged only while the table is written: its "signal" query, read as a plain alarm's
 * inputs; the expression must fill a missing value with 0 where there were writes (else it never breaches).
 */
function whileWrittenMetric(a: CapturedResource): Record<string, unknown> {
  const queries = arr(a.inputs.metricQueries).map(obj);
  const m = obj(queries.find((q) => q.id === "signal")?.metric);
  const judged = queries.find((q) => q.returnData === true);
  if (!/^IF\(writes > 0, FILL\(signal, 0\)\)$/.test(String(judged?.expression))) return {};
  return {
    namespace: m.namespace,
    metricName: m.metricName,
    statistic: m.stat,
    period: m.period,
    dimensions: m.dimensions,
  };
}

function actionProblems(a: CapturedResource, topicArn: string | undefined): string[] {
  return (["alarmActions", "okActions"] as const)
    .filter((k) => JSON.stringify(arr(a.inputs[k])) !== JSON.stringify([topicArn]))
    .map((k) => `${a.name} ${k} are not the Region's on-call topic`);
}

function regionProblems(v: View, role: Role): string[] {
  const alarms = v.ofType(ALARM).filter((a) => v.regionOf(a) === v.region(role));
  const topicArn = str(onCallTopic(v, role)[0]?.state.arn);
  const out: string[] = [];
  for (const s of deployed(v))
    for (const name of namesOf(v, role, s)) {
      const a = alarms.find((x) => x.name === name);
      if (!a) out.push(`${role}: no alarm ${name} (${s.runbook}) in ${v.region(role)}`);
      else
        out.push(...[...settingsProblems(a, s), ...actionProblems(a, topicArn)].map((p) => `${role}: ${p}`));
    }
  for (const s of builtElsewhere(v)) {
    const a = alarms.find((x) => x.name === alarmName(prefixOf(role), s));
    if (!a) out.push(`${role}: no alarm ${alarmName(prefixOf(role), s)} (${s.runbook}) in ${v.region(role)}`);
    else out.push(...[...runbookProblems(a, s), ...actionProblems(a, topicArn)].map((p) => `${role}: ${p}`));
  }
  return [...out, ...issueProblems(v, role, alarms)];
}

/** What the issue asks, whatever the list says: each metric alarmed on, per function where it says so. */
function issueProblems(v: View, role: Role, alarms: CapturedResource[]): string[] {
  const out: string[] = [];
  for (const m of ISSUE_METRICS.filter((x) => !x.mrscOnly || v.expected.claimMode === "mrsc")) {
    const on = alarms.filter(
      (a) =>
        (a.inputs.namespace === m.namespace && a.inputs.metricName === m.name) ||
        arr(a.inputs.metricQueries).some((q) => obj(obj(q).metric).metricName === m.name),
    );
    if (on.length === 0) out.push(`${role}: no alarm on ${m.namespace} ${m.name}`);
    if (!m.perFunction) continue;
    const covered = new Set(on.map((a) => obj(a.inputs.dimensions).FunctionName));
    for (const f of v.functionsIn(role))
      if (!covered.has(f.state.name)) out.push(`${role}: no ${m.name} alarm on ${f.name}`);
  }
  const latency = alarms.filter((a) => a.inputs.metricName === "ReplicationLatency");
  if (
    !latency.some(
      (a) => a.inputs.threshold === 180_000 && a.inputs.comparisonOperator === "GreaterThanThreshold",
    )
  )
    out.push(`${role}: no alarm on ReplicationLatency above 180 s`);
  // The judged expression must fill the missing signal itself (a gate's own FILLs do not make it breach).
  const missing = (a: CapturedResource) =>
    a.inputs.treatMissingData === "breaching" ||
    arr(a.inputs.metricQueries)
      .map(obj)
      .some((q) => q.returnData === true && /FILL\(signal, 0\)/.test(String(q.expression)));
  if (!alarms.some((a) => JSON.stringify(a.inputs).includes('"ReplicationLatency"') && missing(a)))
    out.push(`${role}: no alarm on ReplicationLatency going missing`);
  return out;
}

/** Each on-call signal's alarm in both Regions, as the list says, paging the Region's topic, naming its runbook. */
export const signalAlarms: Invariant = {
  name: "every on-call signal has its alarm in both Regions, paging on-call and naming its runbook entry",
  check: (v) => ROLES.flatMap((role) => regionProblems(v, role)),
};
