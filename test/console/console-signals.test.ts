import { describe, expect, it } from "vitest";
import { alarmEvaluator } from "../../packages/local/src/console/alarm-states";
import { AnswerTally, problemKind } from "../../packages/local/src/console/answer-tally";
import { type RegionsSeen, regionDisagreements } from "../../packages/local/src/console/region-agreement";
import type { ReadingInput, RegionFacts } from "../../packages/local/src/console/signal-readings";
import { countersOf } from "../../packages/local/src/console/signal-readings";
import { WindowedCounters } from "../../packages/local/src/console/windowed-counters";
import { ON_CALL_SIGNALS } from "../../stacks/on-call-signals";

const facts = (over: Partial<RegionFacts> = {}): RegionFacts => ({
  up: true,
  reaches_authority: true,
  snapshot: {
    payments: {},
    unknown: { count: 0, oldest_age_s: null },
    anomalies: 0,
    notifications_failed: 0,
    queues: { events: 0, dlq: 0, relay_failures: 0 },
  },
  answers: new AnswerTally().snapshot(),
  ...over,
});
const replication = { lag_ms: 1_000, pending: 0, running: true, paused: false };

function inputAt(counters: WindowedCounters, atMs: number, f: RegionFacts): ReadingInput {
  counters.record(atMs, countersOf("primary", f, 0));
  return { role: "primary", facts: f, replication, counters };
}

describe("the console's alarms, by the thresholds deployed in AWS", () => {
  it("evaluates every signal of the shared list in each Region, and says which it cannot measure locally", () => {
    // prepare
    const evaluate = alarmEvaluator(undefined);
    const counters = new WindowedCounters();
    // act
    const views = evaluate(0, [inputAt(counters, 0, facts())]);
    // assess: the MRSC-only signal is left out, as the deploy leaves it out; none fires on a quiet stack
    const ids = views.map((v) => v.id);
    expect(ids).toEqual(ON_CALL_SIGNALS.filter((s) => !s.claimMode).map((s) => s.id));
    expect(views.filter((v) => v.state === "ALARM" || v.state === "BREACHING")).toEqual([]);
    expect(views.find((v) => v.id === "LambdaErrors")?.state).toBe("NOT_MEASURED");
  });

  it("breaches at once but pages only after the alarm's periods, as CloudWatch waits", () => {
    // prepare: an unknown payment older than the 900 s threshold
    const evaluate = alarmEvaluator(undefined);
    const counters = new WindowedCounters();
    const old = facts();
    old.snapshot.unknown = { count: 1, oldest_age_s: 1_000 };
    const signal = ON_CALL_SIGNALS.find((s) => s.id === "UnknownOldestAge");
    const waitMs = (signal?.periodS ?? 0) * (signal?.evaluationPeriods ?? 0) * 1000;
    // act
    const first = evaluate(0, [inputAt(counters, 0, old)]).find((v) => v.id === "UnknownOldestAge");
    const later = evaluate(waitMs, [inputAt(counters, waitMs, old)]).find((v) => v.id === "UnknownOldestAge");
    // assess
    expect(first).toMatchObject({ state: "BREACHING", value: 1_000, pages_after_s: 300 });
    expect(later).toMatchObject({ state: "ALARM", breaching_for_s: 300 });
  });

  it("reads a threshold from the list: a changed threshold changes the state (break on purpose)", () => {
    // prepare: 1 of 3 answers a 5xx (33%), against the deployed 5% and against a broken 50%
    const tally = new AnswerTally();
    for (const status of [201, 202, 503]) tally.count({ route: "POST /payments", status });
    const f = facts({ answers: tally.snapshot() });
    const broken = ON_CALL_SIGNALS.map((s) => (s.id === "Api5xxRate" ? { ...s, threshold: 0.5 } : s));
    const c1 = new WindowedCounters();
    c1.record(0, countersOf("primary", facts(), 0));
    const c2 = new WindowedCounters();
    c2.record(0, countersOf("primary", facts(), 0));
    // act
    const deployed = alarmEvaluator(undefined)(1_000, [inputAt(c1, 1_000, f)]).find(
      (v) => v.id === "Api5xxRate",
    );
    const wrong = alarmEvaluator(undefined, broken)(1_000, [inputAt(c2, 1_000, f)]).find(
      (v) => v.id === "Api5xxRate",
    );
    // assess
    expect(deployed?.state).toBe("BREACHING");
    expect(wrong?.state).toBe("OK");
  });

  it("misses replication only where writes wait to be replicated, as AWS judges it only in written periods", () => {
    // prepare
    const evaluate = alarmEvaluator(undefined);
    const stateWith = (over: Partial<typeof replication>) => {
      const counters = new WindowedCounters();
      counters.record(0, countersOf("primary", facts(), 0));
      const input = {
        role: "primary" as const,
        facts: facts(),
        replication: { ...replication, ...over },
        counters,
      };
      return evaluate(0, [input]).find((v) => v.id === "ReplicationMissing")?.state;
    };
    // act
    const idlePaused = stateWith({ paused: true, pending: 0 });
    const stopped = stateWith({ paused: true, pending: 3 });
    const noReplica = stateWith({ running: false });
    // assess
    expect(idlePaused).toBe("OK");
    expect(stopped).toBe("BREACHING");
    expect(noReplica).toBe("NOT_MEASURED");
  });

  it("counts budget refusals from the problem kind of a 503, not from every 503", () => {
    const tally = new AnswerTally();
    tally.count({
      route: "POST /payments",
      status: 503,
      problem: problemKind('{"type":"x/psp-unavailable"}'),
    });
    tally.count({ route: "POST /payments", status: 503, problem: problemKind({ type: "x/region-down" }) });
    expect(tally.snapshot()).toMatchObject({ budget_refused: 1, by_status: { 503: 2 } });
  });
});

describe("the warning when the Regions and the authority disagree", () => {
  const seen = (over: Partial<RegionsSeen["regions"]> = {}): RegionsSeen => ({
    authority: { active: "primary", epoch: 2, reachable_from: { primary: true, standby: true } },
    regions: {
      primary: { up: true, acts_as: "active", control: { active: "primary", epoch: 2 } },
      standby: { up: true, acts_as: "passive", control: { active: "primary", epoch: 2 } },
      ...over,
    },
  });

  it("is empty when they agree, and names each disagreement", () => {
    expect(regionDisagreements(seen())).toEqual([]);
    expect(regionDisagreements(seen({ primary: { up: false, acts_as: "down", control: null } }))).toEqual([
      "the authority names primary active, but primary is down",
    ]);
    const stale = { up: true, acts_as: "passive", control: { active: "primary", epoch: 1 } };
    expect(regionDisagreements(seen({ standby: stale }))).toEqual([
      "standby's own copy names primary (epoch 1); the authority names primary (epoch 2)",
    ]);
  });
});
