/**
 * Issue 41, item 3: the replication alarms page only when replication stops. Each Region's `ReplicationMissing`
 * alarms are evaluated as CloudWatch would evaluate their metric math, on the metrics a Region publishes in each
 * role: active with replication working, active with replication stopped, and passive (it originates no write, yet
 * replicated writes consume its capacity, and it publishes no `ReplicationLatency`). The roles are run-time state,
 * so each Region's alarms are judged in both.
 */
import type { CapturedResource, JsonObject } from "./capture";
import type { Invariant, View } from "./invariants";
import { arr, obj, str } from "./json";

const ALARM = "aws:cloudwatch/metricAlarm:MetricAlarm";
const ROLES = ["primary", "standby"] as const;

/** The write operations DynamoDB's clients make, as `SuccessfulRequestLatency`'s Operation dimension names them. */
const CLIENT_WRITES = ["PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"];

/** A period's published metrics: by name, or name/Operation; a metric absent from the record was not published. */
type Published = Record<string, number>;

/** What a Region publishes for one global table in a 5-minute period, by what it is doing. */
const SITUATIONS: Record<string, { published: Published; pages: boolean }> = {
  "active, replication working": {
    published: {
      "SuccessfulRequestLatency/PutItem": 40,
      "SuccessfulRequestLatency/UpdateItem": 90,
      "SuccessfulRequestLatency/TransactWriteItems": 10,
      ConsumedWriteCapacityUnits: 300,
      ReplicationLatency: 140,
    },
    pages: false,
  },
  "active, replication stopped": {
    published: {
      "SuccessfulRequestLatency/UpdateItem": 90,
      "SuccessfulRequestLatency/TransactWriteItems": 10,
      ConsumedWriteCapacityUnits: 300,
    },
    pages: true,
  },
  "passive, receiving the active Region's writes": {
    published: { ConsumedWriteCapacityUnits: 300 },
    pages: false,
  },
  "passive, idle": { published: {}, pages: false },
};

/** One query's value in a period: a metric's published value, or an expression's; undefined is "no data". */
function queryValue(id: string, queries: JsonObject[], published: Published): number | undefined {
  const q = queries.find((x) => x.id === id);
  if (!q) throw new Error(`no query ${id}`);
  if (q.metric) {
    const m = obj(q.metric);
    const op = str(obj(m.dimensions).Operation);
    return published[op ? `${String(m.metricName)}/${op}` : String(m.metricName)];
  }
  return evaluate(String(q.expression), (ref) => queryValue(ref, queries, published));
}

/** The metric math the alarms use: sums of FILL(x, 0) and IF(a > 0, FILL(b, 0)); anything else is refused. */
function evaluate(expression: string, ref: (id: string) => number | undefined): number | undefined {
  const fill = (e: string) => /^FILL\((\w+), 0\)$/.exec(e.trim());
  const cond = /^IF\((\w+) > 0, (.+)\)$/.exec(expression.trim());
  if (cond) {
    const test = ref(cond[1] as string);
    return test !== undefined && test > 0 ? evaluate(cond[2] as string, ref) : undefined;
  }
  const terms = expression.split("+").map((t) => t.trim());
  if (terms.every((t) => fill(t)))
    return terms.reduce((sum, t) => sum + (ref((fill(t) as RegExpExecArray)[1] as string) ?? 0), 0);
  if (/^\w+$/.test(expression.trim())) return ref(expression.trim());
  throw new Error(`metric math this check cannot evaluate: ${expression}`);
}

/** Whether the alarm goes to ALARM when every period of its evaluation looks like `published`. */
function pages(a: CapturedResource, published: Published): boolean {
  const queries = arr(a.inputs.metricQueries).map(obj);
  const judged = queries.find((q) => q.returnData === true);
  const value = judged
    ? queryValue(String(judged.id), queries, published)
    : published[String(a.inputs.metricName)];
  // Every period the same: one breaching period breaches them all; no data follows treatMissingData.
  if (value === undefined) return a.inputs.treatMissingData === "breaching";
  const t = Number(a.inputs.threshold);
  return a.inputs.comparisonOperator === "LessThanThreshold" ? value < t : value > t;
}

function regionProblems(v: View, role: (typeof ROLES)[number]): string[] {
  const alarms = v
    .ofType(ALARM)
    .filter((a) => v.regionOf(a) === v.region(role) && /ReplicationMissing/.test(a.name));
  if (alarms.length < 2)
    return [`${role}: ${alarms.length} ReplicationMissing alarms, expected one per global table`];
  const out: string[] = [];
  for (const a of alarms) {
    const gate = arr(a.inputs.metricQueries)
      .map((q) => obj(obj(q).metric))
      .filter((m) => m.metricName === "SuccessfulRequestLatency" && m.stat === "SampleCount")
      .map((m) => str(obj(m.dimensions).Operation));
    const uncounted = CLIENT_WRITES.filter((op) => !gate.includes(op));
    if (uncounted.length > 0)
      out.push(`${role}: ${a.name} does not count this Region's ${uncounted.join(", ")} as writes here`);
    for (const [situation, { published, pages: should }] of Object.entries(SITUATIONS))
      if (pages(a, published) !== should)
        out.push(`${role}: ${a.name} ${should ? "stays OK" : "pages"} while the Region is ${situation}`);
  }
  return out;
}

/** Each Region's replication-missing alarms page when its own writes replicate nowhere, never while it is passive. */
export const replicationAlarms: Invariant = {
  name: "the replication alarms page only when replication stops, in either Region and either role",
  check: (v) => ROLES.flatMap((role) => regionProblems(v, role)),
};
