/**
 * The shape of an on-call signal, and what the signal lists share. Plain data, imported by the SST program, by
 * vitest and by packages/local (no Pulumi here).
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
 * per function, stream consumer (a function on the ledger's stream), table or queue of the Region.
 */
export type SignalTarget =
  | "app"
  | "each-function"
  | "stream-consumers"
  | "relay-failures"
  | "stream-job-failures"
  | "api"
  | "events-queue"
  | "events-dlq"
  | "global-tables";

/** One signal an on-call engineer acts on, and the alarm that pages for it in each Region. */
export interface OnCallSignal {
  /** The alarm name's stem: `{Primary|Standby}{id}Alarm` (one per function or table: `{prefix}{id}{Target}Alarm`). */
  id: string;
  /** The runbook entry's bold title (docs/runbook.md), exactly. */
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
   * Judged only in periods in which the Region's own clients wrote to the watched table (the sample counts of its
   * write operations' SuccessfulRequestLatency, which replicated writes do not add to): a metric
   * that AWS publishes only while it replicates is missing for a reason only then, and counts as 0 there.
   */
  whileWritten?: true;
  /** Only deployed in this claim mode (the conflicts of a multi-Region strongly consistent table). */
  claimMode?: "mrsc";
  /** The module that builds this alarm itself (a metric-math alarm), instead of the generator from this list. */
  builtBy?: "stacks/reconcile.ts";
}

/** A metric of our own: our namespace, the `service` dimension, one alarm per Region. */
export const app = { namespace: APP_NAMESPACE, dimensions: ["service"], target: "app" } as const;
/** Periods, in seconds. */
export const MIN = 60;
export const FIVE_MIN = 300;
export const HOUR = 3_600;
