import type { RegionFunctions } from "./functions";
import { handlers } from "./handlers";
import { type OnCall, onCallActions } from "./on-call";
import { alarmDescription, signalOf } from "./on-call-signals";
import type { RegionContext } from "./region-context";

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
 * The nightly reconcile of one Region: its schedule and its two alarms, both acting on the Region's on-call topic.
 * Both Regions get them, since which Region is active is data, not a deployment; the passive Region's run does
 * nothing but count itself (ReconcileRuns).
 */
export function createReconcile(
  ctx: RegionContext,
  functions: RegionFunctions,
  onCall: OnCall,
): aws.cloudwatch.MetricAlarm[] {
  const spec = handlers.find((h) => h.id === "Reconcile");
  const fn = functions.Reconcile;
  const resolver = functions.Resolver;
  if (spec?.trigger.kind !== "cron" || !fn || !resolver)
    throw new Error(`${ctx.prefix}: no nightly Reconcile function (or no Resolver)`);
  const opts = { provider: ctx.provider };
  // No retries: Lambda's retries of this asynchronous invocation are off (stacks/scheduled-invoke-config.ts), and
  // a failed night is the not-run alarm's to report and the operator's to run again (npm run reconcile).
  new sst.aws.CronV2(
    `${ctx.prefix}ReconcileSchedule`,
    { function: fn, schedule: spec.trigger.expression },
    opts,
  );
  const { namespace, dimensions } = RECONCILE_METRICS;
  // Thresholds, periods and rules from the one list (stacks/on-call-signals.ts), as every other alarm's.
  const found = signalOf("ReconcileDiscrepancies");
  const notRunSignal = signalOf("ReconcileNotRun");
  // Any discrepancy in the last 24 hourly periods. Missing data is not breaching here: an hour without a run is
  // normal (it runs once a day), and a night with no run at all is the next alarm's to report.
  const discrepancies = new aws.cloudwatch.MetricAlarm(
    `${ctx.prefix}ReconcileDiscrepanciesAlarm`,
    {
      alarmDescription: alarmDescription(ctx.role, signalOf("ReconcileDiscrepancies")),
      namespace,
      dimensions,
      metricName: RECONCILE_METRICS.discrepancies,
      statistic: found.statistic,
      period: found.periodS,
      evaluationPeriods: found.evaluationPeriods,
      datapointsToAlarm: found.datapointsToAlarm ?? found.evaluationPeriods,
      comparisonOperator: found.comparison,
      threshold: found.threshold,
      treatMissingData: found.missingData,
      ...onCallActions(onCall),
    },
    opts,
  );
  const notRun = new aws.cloudwatch.MetricAlarm(
    `${ctx.prefix}ReconcileNotRunAlarm`,
    {
      alarmDescription: alarmDescription(ctx.role, signalOf("ReconcileNotRun")),
      metricQueries: notRunQueries(resolver.name),
      evaluationPeriods: notRunSignal.evaluationPeriods,
      datapointsToAlarm: notRunSignal.evaluationPeriods,
      comparisonOperator: notRunSignal.comparison,
      threshold: notRunSignal.threshold,
      // An hour with no resolver run is missing (the stage did not exist yet): not breaching, so no page on day one.
      treatMissingData: notRunSignal.missingData,
      ...onCallActions(onCall),
    },
    opts,
  );
  return [discrepancies, notRun];
}

/**
 * A run that never happened publishes nothing, so "no discrepancy" cannot be told from "not checked" by the
 * discrepancy alarm. Every finished run (reconciled, or skipped as passive) counts itself (ReconcileRuns). Each hour
 * here is the runs finished in it, but only for an hour in which the Region's resolver ran (it runs every minute in
 * both Regions, from the first deploy on): 0 then when none finished, missing when the stage was not there yet.
 * Hence 26 breaching hours in a row mean 26 live hours without a run (the schedule gone or disabled, or the run
 * failing or timing out: its Lambda Errors metric says which), and a new stage cannot alarm before its first night.
 */
function notRunQueries(
  resolverName: $util.Input<string>,
): aws.types.input.cloudwatch.MetricAlarmMetricQuery[] {
  const { namespace, dimensions, runs } = RECONCILE_METRICS;
  return [
    {
      id: "runs",
      metric: { namespace, dimensions, metricName: runs, stat: "SampleCount", period: HOUR_S },
      returnData: false,
    },
    {
      id: "live",
      metric: {
        namespace: "AWS/Lambda",
        metricName: "Invocations",
        dimensions: { FunctionName: resolverName },
        stat: "Sum",
        period: HOUR_S,
      },
      returnData: false,
    },
    // 0 wherever the resolver ran, nothing elsewhere; an array's SUM skips the series missing at an hour.
    { id: "liveZero", expression: "0 * live", returnData: false },
    {
      id: "runsWhileLive",
      expression: "SUM([runs, liveZero])",
      label: "finished runs (live hours)",
      returnData: true,
    },
  ];
}
