import type { RegionFunctions } from "./functions";
import { handlers } from "./handlers";
import type { RegionContext } from "./region";

/**
 * Where the reconcile handler's Powertools metrics land: the namespace and the `service` dimension that
 * packages/functions/src/shared/observability.ts gives every metric (its defaults; the stacks set neither variable).
 */
export const RECONCILE_METRICS = {
  namespace: "EffectivelyOnce",
  dimensions: { service: "effectively-once" },
  discrepancies: "ReconcileDiscrepancies",
  runs: "ReconcileRuns",
} as const;

const HOUR_S = 3_600;

/**
 * The nightly reconcile of one Region: its schedule and its two alarms. Both Regions get them, since which Region
 * is active is data, not a deployment; the passive Region's run does nothing but count itself (ReconcileRuns).
 */
export function createReconcile(ctx: RegionContext, functions: RegionFunctions): void {
  const spec = handlers.find((h) => h.id === "Reconcile");
  const fn = functions.Reconcile;
  if (spec?.trigger.kind !== "cron" || !fn) throw new Error(`${ctx.prefix}: no nightly Reconcile function`);
  const opts = { provider: ctx.provider };
  // No retries of our own: Lambda retries a failed asynchronous invocation twice, and the run is read-only.
  new sst.aws.CronV2(
    `${ctx.prefix}ReconcileSchedule`,
    { function: fn, schedule: spec.trigger.expression },
    opts,
  );
  const { namespace, dimensions } = RECONCILE_METRICS;
  // Any discrepancy in the last 24 hourly periods. Missing data is not breaching here: an hour without a run is
  // normal (it runs once a day), and a night with no run at all is the next alarm's to report.
  new aws.cloudwatch.MetricAlarm(
    `${ctx.prefix}ReconcileDiscrepanciesAlarm`,
    {
      alarmDescription: `${ctx.role}: the nightly reconcile found charges and ledger rows that disagree (README runbook, Reconciliation)`,
      namespace,
      dimensions,
      metricName: RECONCILE_METRICS.discrepancies,
      statistic: "Maximum",
      period: HOUR_S,
      evaluationPeriods: 24,
      datapointsToAlarm: 1,
      comparisonOperator: "GreaterThanThreshold",
      threshold: 0,
      treatMissingData: "notBreaching",
    },
    opts,
  );
  // A run that never happened publishes nothing, so "no discrepancy" cannot be told from "not checked" by the
  // alarm above. Every finished run (reconciled, or skipped as passive) counts itself; 26 hours without one
  // (a day, the 25 h overlap and some slack) is breaching, missing data included: the schedule is gone or
  // disabled, or the run failed or timed out (its Lambda Errors metric says which).
  new aws.cloudwatch.MetricAlarm(
    `${ctx.prefix}ReconcileNotRunAlarm`,
    {
      alarmDescription: `${ctx.role}: no nightly reconcile finished in 26 h (README runbook, Reconciliation)`,
      namespace,
      dimensions,
      metricName: RECONCILE_METRICS.runs,
      statistic: "SampleCount",
      period: HOUR_S,
      evaluationPeriods: 26,
      datapointsToAlarm: 26,
      comparisonOperator: "LessThanThreshold",
      threshold: 1,
      treatMissingData: "breaching",
    },
    opts,
  );
}
