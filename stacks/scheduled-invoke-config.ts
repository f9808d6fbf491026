import type { RegionFunctions } from "./functions";
import { type HandlerSpec, handlers, type Trigger } from "./handlers";
import type { RegionContext } from "./region-context";

/** Lambda's bounds on how long an asynchronous event may wait in its queue (FunctionEventInvokeConfig). */
const MIN_EVENT_AGE_S = 60;
const MAX_EVENT_AGE_S = 21_600;

/** How often a scheduled trigger fires, in seconds (a cron expression of this app runs once a day). */
export function schedulePeriodSeconds(trigger: Trigger): number | undefined {
  if (trigger.kind === "schedule") return trigger.rate === "1 minute" ? 60 : 300;
  if (trigger.kind === "cron") return 86_400;
  return undefined;
}

/**
 * How long a scheduled pass may wait in Lambda's asynchronous queue (throttled by its reserved concurrency, say)
 * before Lambda drops it: half a period over the period, so a pass delayed within its own period still runs, but
 * a pass older than that is superseded by the next one, which does the same work; within Lambda's 60 s to 6 h.
 */
export function scheduledEventAgeSeconds(trigger: Trigger): number | undefined {
  const period = schedulePeriodSeconds(trigger);
  if (period === undefined) return undefined;
  return Math.min(MAX_EVENT_AGE_S, Math.max(MIN_EVENT_AGE_S, Math.round(period * 1.5)));
}

/** The handlers that a schedule invokes (the resolver, the sweeps, the nightly reconcile). */
export function scheduledHandlers(): HandlerSpec[] {
  return handlers.filter((h) => schedulePeriodSeconds(h.trigger) !== undefined);
}

/**
 * Turns off Lambda's retries of every scheduled function in one Region. EventBridge Scheduler invokes Lambda
 * asynchronously, and Lambda retries a failed asynchronous invocation twice by default: a resolver or sweeps pass
 * retried (after a minute, then two more) runs beside the next scheduled pass. Each pass does what the previous
 * one left undone and the next comes at its schedule, so a failed pass is not retried (the reconcile's alarms and
 * runbook cover a failed night).
 */
export function createScheduledInvokeConfigs(
  ctx: RegionContext,
  functions: RegionFunctions,
): aws.lambda.FunctionEventInvokeConfig[] {
  return scheduledHandlers().map((spec) => {
    const fn = functions[spec.id];
    const maximumEventAgeInSeconds = scheduledEventAgeSeconds(spec.trigger);
    if (!fn || maximumEventAgeInSeconds === undefined)
      throw new Error(`${ctx.prefix}: no scheduled function for ${spec.id}`);
    // Unqualified, as the schedule's target is (SST's CronV2 invokes the function's unqualified ARN). Not named
    // `${name}EventInvokeConfig`: that is the name SST gives its own when a function sets `retries`.
    return new aws.lambda.FunctionEventInvokeConfig(
      `${ctx.prefix}${spec.id}ScheduledInvokeConfig`,
      { functionName: fn.name, maximumRetryAttempts: 0, maximumEventAgeInSeconds },
      { provider: ctx.provider },
    );
  });
}
