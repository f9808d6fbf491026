import type { RegionRole } from "@eo/core";
import { type Comparison, ON_CALL_SIGNALS, type OnCallSignal } from "../../../../stacks/on-call-signals";
import { type ReadingInput, readSignal } from "./signal-readings";

/** OK, breaching but not yet for as long as the alarm waits, ALARM (it would page), or nothing to read locally. */
export type AlarmState = "OK" | "BREACHING" | "ALARM" | "NOT_MEASURED";

/** One alarm of one Region as the console shows it. */
export interface AlarmView {
  id: string;
  region: RegionRole;
  state: AlarmState;
  value: number | null;
  threshold: number;
  comparison: Comparison;
  meaning: string;
  runbook: string;
  /** How long the breach must last before CloudWatch would go to ALARM (periods × evaluation periods). */
  pages_after_s: number;
  breaching_for_s: number;
}

const breaches = (c: Comparison, v: number, t: number) =>
  c === "GreaterThanThreshold"
    ? v > t
    : c === "GreaterThanOrEqualToThreshold"
      ? v >= t
      : c === "LessThanThreshold"
        ? v < t
        : v <= t;

/**
 * Evaluates every on-call signal deployed in this claim mode (the list the AWS alarms are built from) against the
 * local readings, remembering when each breach began: an alarm is ALARM only once its breach lasted
 * `datapointsToAlarm` (else `evaluationPeriods`) periods, as CloudWatch waits before it pages.
 */
export function alarmEvaluator(
  claimMode: string | undefined,
  signals: readonly OnCallSignal[] = ON_CALL_SIGNALS,
): (nowMs: number, inputs: ReadingInput[]) => AlarmView[] {
  const since = new Map<string, number>();
  const deployed = signals.filter((s) => !s.claimMode || s.claimMode === claimMode);
  return (nowMs, inputs) =>
    deployed.flatMap((s) =>
      inputs.map((input) => {
        const key = `${input.role} ${s.id}`;
        const value = readSignal(s.id, input, s.periodS * 1000);
        const pagesAfterS = s.periodS * (s.datapointsToAlarm ?? s.evaluationPeriods);
        const breach = value !== undefined && breaches(s.comparison, value, s.threshold);
        if (!breach) since.delete(key);
        else if (!since.has(key)) since.set(key, nowMs);
        const forS = breach ? Math.round((nowMs - (since.get(key) ?? nowMs)) / 1000) : 0;
        const state: AlarmState =
          value === undefined ? "NOT_MEASURED" : !breach ? "OK" : forS >= pagesAfterS ? "ALARM" : "BREACHING";
        return {
          id: s.id,
          region: input.role,
          state,
          value: value ?? null,
          threshold: s.threshold,
          comparison: s.comparison,
          meaning: s.meaning,
          runbook: s.runbook,
          pages_after_s: pagesAfterS,
          breaching_for_s: forS,
        };
      }),
    );
}
