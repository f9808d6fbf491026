/**
 * Issue 41, item 5: scheduled jobs run with Lambda's retries off. A schedule invokes its function asynchronously,
 * and Lambda retries a failed asynchronous invocation twice unless the function's event invoke config says
 * otherwise: a retried resolver or sweeps pass would overlap the next scheduled one. Held to the issue: every
 * function a schedule invokes, in each Region, has exactly one config for the ARN the schedule invokes, with no
 * retries, and keeps a queued pass no longer than Lambda allows (and at least a period, or a throttled pass is lost).
 */
import { handlers } from "../../../stacks/handlers";
import type { CapturedResource } from "./capture";
import type { Invariant, View } from "./invariants";
import { obj, str } from "./json";

const ROLES = ["primary", "standby"] as const;
const CONFIG = "aws:lambda/functionEventInvokeConfig:FunctionEventInvokeConfig";
/** The period of each schedule of the issue, in seconds (not read from the stacks). */
const PERIOD_S: Record<string, number> = { "rate(1 minute)": 60, "rate(5 minutes)": 300 };
const DAY_S = 86_400;
const MAX_EVENT_AGE_S = 21_600;

/** The functions a schedule in this Region invokes, by the ARN it invokes, with the schedule's period. */
function scheduledTargets(v: View, role: (typeof ROLES)[number]): { f: CapturedResource; periodS: number }[] {
  const out: { f: CapturedResource; periodS: number }[] = [];
  for (const s of v.ofType("aws:scheduler/schedule:Schedule")) {
    if (v.regionOf(s) !== v.region(role)) continue;
    const f = v.functionsIn(role).find((fn) => str(fn.state.arn) === obj(s.inputs.target).arn);
    const expr = String(s.inputs.scheduleExpression);
    if (f) out.push({ f, periodS: PERIOD_S[expr] ?? (expr.startsWith("cron(") ? DAY_S : 0) });
  }
  return out;
}

function regionProblems(v: View, role: (typeof ROLES)[number]): string[] {
  const out: string[] = [];
  const configs = v.ofType(CONFIG).filter((c) => v.regionOf(c) === v.region(role));
  const targets = scheduledTargets(v, role);
  // Every handler whose trigger is a schedule must have been found behind one (else the check proves nothing).
  for (const h of handlers.filter((x) => x.trigger.kind === "schedule" || x.trigger.kind === "cron")) {
    if (!targets.some((t) => t.f.inputs.handler === h.handler))
      out.push(`${role}: no schedule invokes ${h.id}`);
  }
  for (const { f, periodS } of targets) {
    const id = handlers.find((h) => h.handler === f.inputs.handler)?.id ?? f.name;
    const arn = str(f.state.arn);
    const mine = configs.filter(
      (c) => c.inputs.functionName === f.state.name || c.inputs.functionName === arn,
    );
    if (mine.length !== 1) {
      out.push(
        `${role}: ${id} has ${mine.length} event invoke configs, expected 1 (Lambda retries it twice)`,
      );
      continue;
    }
    const c = mine[0] as CapturedResource;
    // The schedule invokes the unqualified ARN: a config on a version or alias would not apply to it.
    if (c.inputs.qualifier !== undefined && c.inputs.qualifier !== "$LATEST")
      out.push(
        `${role}: ${id}'s event invoke config is on ${c.inputs.qualifier}, not what the schedule invokes`,
      );
    if (c.inputs.maximumRetryAttempts !== 0)
      out.push(`${role}: ${id} is retried ${c.inputs.maximumRetryAttempts ?? 2} times after a failed pass`);
    const age = Number(c.inputs.maximumEventAgeInSeconds);
    if (!(age >= Math.min(periodS, MAX_EVENT_AGE_S) && age <= MAX_EVENT_AGE_S))
      out.push(
        `${role}: ${id} keeps a queued pass ${c.inputs.maximumEventAgeInSeconds} s (its period is ${periodS} s)`,
      );
  }
  return out;
}

/** Each Region's scheduled functions are invoked once per schedule: Lambda's retries are off. */
export const scheduledRetriesOff: Invariant = {
  name: "every scheduled function runs with Lambda's asynchronous retries off",
  check: (v) => ROLES.flatMap((role) => regionProblems(v, role)),
};
