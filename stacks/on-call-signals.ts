/**
 * The on-call signals: one list that the alarms (stacks/alarms.ts), the dashboard (stacks/dashboard.ts), the offline
 * checks, the runbook's alarm table and the local console all read, so that what pages, what is drawn, what the
 * runbook says and what the console shows as firing cannot drift apart. Each signal names its runbook entry
 * (docs/runbook.md) by its bold title, exactly.
 *
 * This file is plain data: it is imported by the SST program, by vitest and by packages/local (no Pulumi here).
 */

import type { OnCallSignal } from "./on-call-signal-types";
import { ASYNC_SIGNALS } from "./on-call-signals-async";
import { BUYER_SIGNALS } from "./on-call-signals-buyers";
import { REGION_SIGNALS } from "./on-call-signals-regions";

export {
  APP_DIMENSIONS,
  APP_NAMESPACE,
  type Comparison,
  type MissingData,
  type OnCallSignal,
  type SignalTarget,
} from "./on-call-signal-types";

/** Every on-call signal, symptoms first (buyers without answers, money that does not match), then causes. */
export const ON_CALL_SIGNALS: readonly OnCallSignal[] = [
  ...BUYER_SIGNALS,
  ...ASYNC_SIGNALS,
  ...REGION_SIGNALS,
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

/** The alarm's description: its Region, its meaning and the runbook entry (docs/runbook.md) that says what to do. */
export function alarmDescription(role: string, signal: OnCallSignal): string {
  return `${role}: ${signal.meaning} (runbook docs/runbook.md: "${signal.runbook}")`;
}

/** The signal of this id, for a module that builds its alarm itself. */
export function signalOf(id: string): OnCallSignal {
  const signal = ON_CALL_SIGNALS.find((s) => s.id === id);
  if (!signal) throw new Error(`no on-call signal ${id}`);
  return signal;
}
