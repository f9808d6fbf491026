import type { RegionRole } from "@eo/core";
import type { AnswerCounts } from "./answer-tally";
import type { RegionSnapshot } from "./region-snapshot";
import type { WindowedCounters } from "./windowed-counters";

/** What the console knows about one Region at one poll. */
export interface RegionFacts {
  up: boolean;
  reaches_authority: boolean;
  snapshot: RegionSnapshot;
  answers: AnswerCounts;
}

/** What a signal's local reading is computed from. */
export interface ReadingInput {
  role: RegionRole;
  facts: RegionFacts;
  replication: { lag_ms: number; pending: number; running: boolean; paused: boolean };
  counters: WindowedCounters;
}

/** The counters recorded at each poll for one Region (the PSP's 429s are global: the fake PSP serves both). */
export function countersOf(role: RegionRole, facts: RegionFacts, psp429: number): Record<string, number> {
  const s = facts.answers.by_status;
  const all = Object.values(s).reduce((a, b) => a + b, 0);
  const fivexx = Object.entries(s).reduce((a, [status, n]) => a + (Number(status) >= 500 ? n : 0), 0);
  return {
    [`${role}.answers`]: all,
    [`${role}.5xx`]: fivexx,
    [`${role}.budget`]: facts.answers.budget_refused,
    [`${role}.anomalies`]: facts.snapshot.anomalies,
    [`${role}.refunds_failed`]: facts.snapshot.refunds_failed_later ?? 0,
    [`${role}.failed`]: facts.snapshot.notifications_failed,
    [`${role}.dlq`]: facts.snapshot.queues.dlq ?? 0,
    "psp.429": psp429,
  };
}

type Reading = (i: ReadingInput, periodMs: number) => number | undefined;

/**
 * The local stand-in for each alarm's metric, over the alarm's own period where it is a sum. A signal missing here
 * has no local source (Lambda errors and throttles, the nightly reconcile, the relay's iterator age, ...): the
 * console says so rather than showing it green.
 */
const READINGS: Record<string, Reading> = {
  Api5xxRate: ({ role, counters }, p) => {
    const all = counters.increase(`${role}.answers`, p);
    return all === 0 ? 0 : counters.increase(`${role}.5xx`, p) / all;
  },
  UnknownOldestAge: ({ facts }) => facts.snapshot.unknown.oldest_age_s ?? 0,
  PaymentAnomalies: ({ role, counters }, p) => counters.increase(`${role}.anomalies`, p),
  RefundFailedLater: ({ role, counters }, p) => counters.increase(`${role}.refunds_failed`, p),
  DlqArrivals: ({ role, counters }, p) => counters.increase(`${role}.dlq`, p),
  EventsDlqDepth: ({ facts }) => facts.snapshot.queues.dlq ?? 0,
  NotificationsFailedForGood: ({ role, counters }, p) => counters.increase(`${role}.failed`, p),
  AuthorityReadFailures: ({ facts }) => (facts.up && !facts.reaches_authority ? 1 : 0),
  PspBudgetRefused: ({ role, counters }, p) => counters.increase(`${role}.budget`, p),
  PspThrottled: ({ counters }, p) => counters.increase("psp.429", p),
  // The standby receives what the primary writes and the other way round: each Region reads the lag into itself.
  // With one Region there is no replica, and in AWS no replication alarm either.
  ReplicationLatency: ({ replication }) =>
    !replication.running ? undefined : replication.paused || replication.pending > 0 ? replication.lag_ms : 0,
  // As in AWS (whileWritten), only a Region that has writes waiting to replicate can miss the metric: a paused
  // replicator with nothing pending is an idle table, not a stopped replication.
  ReplicationMissing: ({ replication }) =>
    !replication.running ? undefined : replication.paused && replication.pending > 0 ? 0 : 1,
};

/** The signal's local reading for a Region, or undefined when the local stack has nothing to measure it by. */
export function readSignal(id: string, input: ReadingInput, periodMs: number): number | undefined {
  return READINGS[id]?.(input, periodMs);
}
