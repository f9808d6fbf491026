/**
 * The on-call signals: one list that the alarms (stacks/alarms.ts), the dashboard (stacks/dashboard.ts), the offline
 * checks and the local console all read, so that what pages, what is drawn and what the console shows as firing
 * cannot drift apart. Each signal names its README runbook entry by its bold title, exactly.
 *
 * This file is plain data: it is imported by the SST program, by vitest and by packages/local (no Pulumi here).
 */

/** Our own metrics' namespace and the dimension Powertools gives every one of them (shared/observability.ts). */
export const APP_NAMESPACE = "EffectivelyOnce";
export const APP_DIMENSIONS = { service: "effectively-once" } as const;

/** CloudWatch's comparison operators used here. */
export type Comparison =
  | "GreaterThanThreshold"
  | "GreaterThanOrEqualToThreshold"
  | "LessThanThreshold"
  | "LessThanOrEqualToThreshold";

/** What an alarm makes of a period without data. */
export type MissingData = "notBreaching" | "breaching" | "missing" | "ignore";

/**
 * Which resource fills the metric's dimensions (besides `service` for our own metrics): one alarm per Region, or one
 * per function, table or queue of the Region.
 */
export type SignalTarget =
  | "app"
  | "each-function"
  | "relay-function"
  | "api"
  | "events-queue"
  | "events-dlq"
  | "global-tables";

/** One signal an on-call engineer acts on, and the alarm that pages for it in each Region. */
export interface OnCallSignal {
  /** The alarm name's stem: `{Primary|Standby}{id}Alarm` (one per function or table: `{prefix}{id}{Target}Alarm`). */
  id: string;
  /** The README runbook entry's bold title, exactly. */
  runbook: string;
  /** What the alarm means, in one line. */
  meaning: string;
  namespace: string;
  name: string;
  /** The metric's dimension names (their values come from `target`). */
  dimensions: readonly string[];
  statistic: "Sum" | "Average" | "Maximum" | "Minimum" | "SampleCount";
  target: SignalTarget;
  threshold: number;
  comparison: Comparison;
  periodS: number;
  evaluationPeriods: number;
  /** How many of the evaluation periods must breach (all of them when absent). */
  datapointsToAlarm?: number;
  missingData: MissingData;
  /** Why this threshold, period and missing-data rule, in one line. */
  why: string;
  /**
   * Judged only in periods in which the Region wrote to the watched table (its ConsumedWriteCapacityUnits): a metric
   * that AWS publishes only while it replicates is missing for a reason only then, and counts as 0 there.
   */
  whileWritten?: true;
  /** Only deployed in this claim mode (the conflicts of a multi-Region strongly consistent table). */
  claimMode?: "mrsc";
  /** The module that builds this alarm itself (a metric-math alarm), instead of the generator from this list. */
  builtBy?: "stacks/reconcile.ts";
}

const app = { namespace: APP_NAMESPACE, dimensions: ["service"], target: "app" } as const;
const MIN = 60;
const FIVE_MIN = 300;
const HOUR = 3_600;

/** Every on-call signal, symptoms first (buyers without answers, money that does not match), then causes. */
export const ON_CALL_SIGNALS: readonly OnCallSignal[] = [
  {
    id: "Api5xxRate",
    runbook: "Buyers get 5xx answers",
    meaning: "More than 5% of the API's requests answered 5xx for 3 minutes",
    namespace: "AWS/ApiGateway",
    name: "5xx",
    dimensions: ["ApiId"],
    statistic: "Average",
    target: "api",
    threshold: 0.05,
    comparison: "GreaterThanThreshold",
    periodS: MIN,
    evaluationPeriods: 3,
    missingData: "notBreaching",
    why: "The average of 0/1 per request is the 5xx rate; 3 minutes rides out a failover's brief 503s; no traffic is no symptom",
  },
  {
    id: "UnknownOldestAge",
    runbook: "Payments stuck in PROCESSING",
    meaning: "The oldest payment whose outcome we do not know is older than 15 minutes",
    ...app,
    name: "UnknownOldestAgeS",
    statistic: "Maximum",
    threshold: 900,
    comparison: "GreaterThanThreshold",
    periodS: MIN,
    evaluationPeriods: 5,
    missingData: "notBreaching",
    why: "The resolver settles within its 5-minute backoff and 600 s not-found rule; only the active Region's pass publishes it",
  },
  {
    id: "PaymentAnomalies",
    runbook: "Anomalies",
    meaning: "The PSP charged a payment we answered FAILED",
    ...app,
    name: "PaymentAnomalies",
    statistic: "Sum",
    threshold: 0,
    comparison: "GreaterThanThreshold",
    periodS: FIVE_MIN,
    evaluationPeriods: 1,
    missingData: "notBreaching",
    why: "Each one is money taken without an order: one pages; it is only published when one happens",
  },
  {
    id: "ReconcileDiscrepancies",
    runbook: "Reconciliation",
    meaning: "The nightly reconcile found charges and ledger rows that disagree",
    ...app,
    name: "ReconcileDiscrepancies",
    statistic: "Maximum",
    threshold: 0,
    comparison: "GreaterThanThreshold",
    periodS: HOUR,
    evaluationPeriods: 24,
    datapointsToAlarm: 1,
    missingData: "notBreaching",
    why: "Any discrepancy in the last 24 hours; an hour without a run is normal (it runs nightly), the next alarm covers none",
    builtBy: "stacks/reconcile.ts",
  },
  {
    id: "ReconcileNotRun",
    runbook: "Reconciliation",
    meaning: "No nightly reconcile finished in 26 hours while the Region ran",
    ...app,
    name: "ReconcileRuns",
    statistic: "SampleCount",
    threshold: 1,
    comparison: "LessThanThreshold",
    periodS: HOUR,
    evaluationPeriods: 26,
    missingData: "notBreaching",
    why: "A day, the run's 25 h overlap and slack; counted only in hours the resolver ran, so a new stage does not page",
    builtBy: "stacks/reconcile.ts",
  },
  {
    id: "DlqArrivals",
    runbook: "Messages in the events DLQ",
    meaning: "Events failed their last receive and went to the events DLQ",
    ...app,
    name: "DlqArrivals",
    statistic: "Sum",
    threshold: 0,
    comparison: "GreaterThanThreshold",
    periodS: FIVE_MIN,
    evaluationPeriods: 1,
    missingData: "notBreaching",
    why: "An event in the DLQ holds its merchant's later events back; published only when one arrives",
  },
  {
    id: "EventsDlqDepth",
    runbook: "Messages in the events DLQ",
    meaning: "Messages stayed in the events DLQ through three sweeps (15 minutes)",
    namespace: "AWS/SQS",
    name: "ApproximateNumberOfMessagesVisible",
    dimensions: ["QueueName"],
    statistic: "Minimum",
    target: "events-dlq",
    threshold: 0,
    comparison: "GreaterThanThreshold",
    periodS: FIVE_MIN,
    evaluationPeriods: 3,
    missingData: "notBreaching",
    why: "SQS does not count redrive arrivals as sent; the sweeps route a partition's dead letters, what stays 15 min is ours",
  },
  {
    id: "NotificationsFailedForGood",
    runbook: "Permanently failed notifications",
    meaning: "More than 10 notifications were refused for good in 15 minutes",
    ...app,
    name: "NotificationsFailedPermanently",
    statistic: "Sum",
    threshold: 10,
    comparison: "GreaterThanThreshold",
    periodS: 900,
    evaluationPeriods: 1,
    missingData: "notBreaching",
    why: "One buyer's disabled phone needs nothing; a spike means the account (SES paused, push credentials expired)",
  },
  {
    id: "AuthorityReadFailures",
    runbook: "Where the authority lives, and what a Region does without it.",
    meaning:
      "The Region could not read the Region authority for 3 minutes: it is passive (writes answer 503)",
    ...app,
    name: "AuthorityReadFailures",
    statistic: "Sum",
    threshold: 0,
    comparison: "GreaterThanThreshold",
    periodS: MIN,
    evaluationPeriods: 3,
    missingData: "notBreaching",
    why: "One failed read is retried at the next cache period; three minutes in a row is a cut-off Region, not a blip",
  },
  {
    id: "PspBudgetRefused",
    runbook: "The PSP budget spent",
    meaning: "Our PSP rate budget refused calls for 5 minutes",
    ...app,
    name: "PspBudgetRefused",
    statistic: "Sum",
    threshold: 0,
    comparison: "GreaterThanThreshold",
    periodS: MIN,
    evaluationPeriods: 5,
    missingData: "notBreaching",
    why: "A burst is what the budget is for; five minutes in a row means buyers wait or get 503 until load or budget changes",
  },
  {
    id: "PspThrottled",
    runbook: "The PSP budget spent",
    meaning: "The PSP answered 429 to more than 10 calls a minute for 3 minutes",
    ...app,
    name: "PspThrottled",
    statistic: "Sum",
    threshold: 10,
    comparison: "GreaterThanThreshold",
    periodS: MIN,
    evaluationPeriods: 3,
    missingData: "notBreaching",
    why: "Our budget should keep us under the PSP's limit; sustained 429s mean the limit or the budget changed",
  },
  {
    id: "RelayFailures",
    runbook: "The async path falls behind",
    meaning: "The outbox relay failed to publish stream records in 3 of the last 5 minutes",
    ...app,
    name: "RelayFailures",
    statistic: "Sum",
    threshold: 0,
    comparison: "GreaterThanThreshold",
    periodS: MIN,
    evaluationPeriods: 5,
    datapointsToAlarm: 3,
    missingData: "notBreaching",
    why: "The stream retries a failed batch, so one failure is noise; 3 of 5 minutes is a relay that cannot publish",
  },
  {
    id: "WorkerFailures",
    runbook: "The async path falls behind",
    meaning: "The events worker failed more than 10 events in each of 3 periods of 5 minutes",
    ...app,
    name: "WorkerFailures",
    statistic: "Sum",
    threshold: 10,
    comparison: "GreaterThanThreshold",
    periodS: FIVE_MIN,
    evaluationPeriods: 3,
    missingData: "notBreaching",
    why: "SQS redelivers a failed event (5 receives), so a few are transient; sustained failures fill the DLQ next",
  },
  {
    id: "RelayIteratorAge",
    runbook: "The async path falls behind",
    meaning: "The outbox relay reads ledger stream records more than 60 s old for 5 minutes",
    namespace: "AWS/Lambda",
    name: "IteratorAge",
    dimensions: ["FunctionName"],
    statistic: "Maximum",
    target: "relay-function",
    threshold: 60_000,
    comparison: "GreaterThanThreshold",
    periodS: MIN,
    evaluationPeriods: 5,
    missingData: "notBreaching",
    why: "Events normally leave in seconds; a minute behind for 5 minutes is a stuck shard; no writes means no data",
  },
  {
    id: "EventsQueueAge",
    runbook: "The async path falls behind",
    meaning: "The events queue's oldest message is older than 5 minutes for 10 minutes",
    namespace: "AWS/SQS",
    name: "ApproximateAgeOfOldestMessage",
    dimensions: ["QueueName"],
    statistic: "Maximum",
    target: "events-queue",
    threshold: 300,
    comparison: "GreaterThanThreshold",
    periodS: FIVE_MIN,
    evaluationPeriods: 2,
    missingData: "notBreaching",
    why: "A credit and its notification are late for buyers past 5 min; SQS publishes every 5 minutes, hence 2 periods",
  },
  {
    id: "LambdaErrors",
    runbook: "A function fails or is throttled",
    meaning: "A function's invocations failed in 3 minutes in a row",
    namespace: "AWS/Lambda",
    name: "Errors",
    dimensions: ["FunctionName"],
    statistic: "Sum",
    target: "each-function",
    threshold: 0,
    comparison: "GreaterThanThreshold",
    periodS: MIN,
    evaluationPeriods: 3,
    missingData: "notBreaching",
    why: "Handlers answer errors themselves, so an invocation error is a crash (ConfigError, timeout); 3 minutes skips a blip",
  },
  {
    id: "LambdaThrottles",
    runbook: "A function fails or is throttled",
    meaning: "A function was throttled in 3 minutes in a row",
    namespace: "AWS/Lambda",
    name: "Throttles",
    dimensions: ["FunctionName"],
    statistic: "Sum",
    target: "each-function",
    threshold: 0,
    comparison: "GreaterThanThreshold",
    periodS: MIN,
    evaluationPeriods: 3,
    missingData: "notBreaching",
    why: "A throttled request is a buyer's 5xx or a late event; sustained throttling means the concurrency limit is reached",
  },
  {
    id: "ReplicationLatency",
    runbook: "Replication falls behind",
    meaning: "A global table's replication to the other Region is more than 180 s behind for 15 minutes",
    namespace: "AWS/DynamoDB",
    name: "ReplicationLatency",
    dimensions: ["TableName", "ReceivingRegion"],
    statistic: "Average",
    target: "global-tables",
    threshold: 180_000,
    comparison: "GreaterThanThreshold",
    periodS: MIN,
    evaluationPeriods: 15,
    missingData: "notBreaching",
    why: "AWS's guidance for global tables: 180 s for 15 minutes; a failover then waits long and the other Region reads old rows",
  },
  {
    id: "ReplicationMissing",
    runbook: "Replication falls behind",
    meaning:
      "A global table took writes here but published no ReplicationLatency for 30 minutes: replication stopped",
    namespace: "AWS/DynamoDB",
    name: "ReplicationLatency",
    dimensions: ["TableName", "ReceivingRegion"],
    statistic: "SampleCount",
    target: "global-tables",
    threshold: 1,
    comparison: "LessThanThreshold",
    periodS: FIVE_MIN,
    evaluationPeriods: 6,
    missingData: "notBreaching",
    why: "AWS's guidance: alarm on it going missing; a period with writes here and no value breaches, an idle one does not",
    whileWritten: true,
  },
  {
    id: "ReplicatedWriteConflicts",
    runbook: "Write conflicts across Regions",
    meaning: "More than 5 claim writes a minute lost a race with the other Region (MRSC) for 5 minutes",
    ...app,
    name: "ReplicatedWriteConflicts",
    statistic: "Sum",
    threshold: 5,
    comparison: "GreaterThanThreshold",
    periodS: MIN,
    evaluationPeriods: 5,
    missingData: "notBreaching",
    why: "With one active Region conflicts are rare retries (409); sustained ones mean both Regions take the same keys",
    claimMode: "mrsc",
  },
];

/**
 * Our own metrics the handlers publish besides the alarmed ones: drawn on the dashboard and the console, not paged on.
 * Dimensioned ones are published one by one (Powertools `singleMetric`) with these dimensions and `service`.
 */
export const APP_METRICS = {
  /** Every answer of the payment routes: `Status` 201, 202, 402, 409, 422, 503; `Kind` the problem's last path part. */
  PaymentAnswers: { name: "PaymentAnswers", dimensions: ["service", "Status", "Kind"] },
  /** Every PSP call: `Origin` live or resolver, `Outcome` ok, declined, 429, 5xx, network, budget-refused. */
  PspCalls: { name: "PspCalls", dimensions: ["service", "Origin", "Outcome"] },
  UnknownBacklog: { name: "UnknownBacklog", dimensions: ["service"] },
  UnknownOldestAgeS: { name: "UnknownOldestAgeS", dimensions: ["service"] },
  ResolverSettled: { name: "ResolverSettled", dimensions: ["service"] },
  ResolverUnresolved: { name: "ResolverUnresolved", dimensions: ["service"] },
  /** 1 when this Region's last read of the authority named it, 0 otherwise (published by each resolver pass). */
  RegionActive: { name: "RegionActive", dimensions: ["service"] },
  AuthorityEpoch: { name: "AuthorityEpoch", dimensions: ["service"] },
} as const;

/** The alarm's name in a Region: `{prefix}{id}Alarm`, or `{prefix}{id}{Part}Alarm` for one of several targets. */
export function alarmName(prefix: string, signal: Pick<OnCallSignal, "id">, part = ""): string {
  return `${prefix}${signal.id}${part}Alarm`;
}
