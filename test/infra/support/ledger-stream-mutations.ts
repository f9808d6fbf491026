/** Break-on-purpose cases for issue 41, items 1 and 2: one reader per ledger stream, its alarms and failure queues. */
import type { Capture, CapturedResource, JsonObject } from "./capture";
import {
  failureQueuePerConsumer,
  filtersWithinQuota,
  oneStreamReader,
  streamIteratorAge,
} from "./ledger-stream-invariant";
import { type Mutation, resourceOf } from "./mutation";
import { SCENARIOS } from "./scenarios";

const scenario = (name: string) => {
  const found = SCENARIOS.find((s) => s.scenario.name === name);
  if (!found) throw new Error(`no scenario ${name}`);
  return found;
};
const ESM = "aws:lambda/eventSourceMapping:EventSourceMapping";
const ALARM = "aws:cloudwatch/metricAlarm:MetricAlarm";
const subscription = (c: Capture, prefix: string) => resourceOf(c, ESM, `${prefix}LedgerStreamSubscription`);
const fn = (c: Capture, name: string) => resourceOf(c, "aws:lambda/function:Function", `${name}Function`);
const dropAlarm = (c: Capture, match: (a: CapturedResource) => boolean) => {
  const before = c.resources.length;
  c.resources = c.resources.filter((r) => !(r.type === ALARM && match(r)));
  if (c.resources.length === before) throw new Error("no alarm matched");
};
const queueName = (c: Capture, name: string) =>
  String(resourceOf(c, "aws:sqs/queue:Queue", `${name}Queue`).state.name);

export const LEDGER_STREAM_MUTATIONS: Mutation[] = [
  {
    what: "a second Lambda reader on the primary's ledger stream (the StreamJob's old mapping beside the relay's)",
    invariant: oneStreamReader,
    on: scenario("home-dev"),
    breakIt: (c) => {
      const copy = structuredClone(subscription(c, "Primary"));
      copy.name = "PrimaryStreamJobSubscription";
      c.resources.push(copy);
    },
    expectViolation:
      /primary: 2 Lambda readers on .*PrimaryLedgerStreamSubscription, PrimaryStreamJobSubscription/,
  },
  {
    what: "the standby's ledger stream read by nothing",
    invariant: oneStreamReader,
    on: scenario("mrsc-production"),
    breakIt: (c) => {
      const esm = subscription(c, "Standby");
      c.resources = c.resources.filter((r) => r !== esm);
    },
    expectViolation: /standby: nothing reads the ledger stream/,
  },
  {
    what: "the stream consumer without an IteratorAge alarm (a throttled shard shows only there)",
    invariant: streamIteratorAge,
    on: scenario("home-dev"),
    breakIt: (c) =>
      dropAlarm(c, (a) => a.name.startsWith("Standby") && a.inputs.metricName === "IteratorAge"),
    expectViolation: /standby: StandbyLedgerStreamFunction reads a stream and has no IteratorAge alarm/,
  },
  {
    what: "the stream job's failure queue watched by nothing",
    invariant: failureQueuePerConsumer,
    on: scenario("home-dev"),
    breakIt: (c) => {
      const name = queueName(c, "PrimaryStreamJobFailures");
      dropAlarm(c, (a) => (a.inputs.dimensions as JsonObject | undefined)?.QueueName === name);
    },
    expectViolation: /primary: the stream job failure queue PrimaryStreamJobFailuresQueue has no alarm/,
  },
  {
    what: "the relay-failures queue watched by nothing",
    invariant: failureQueuePerConsumer,
    on: scenario("mrsc-production"),
    breakIt: (c) => {
      const name = queueName(c, "StandbyRelayFailures");
      dropAlarm(c, (a) => (a.inputs.dimensions as JsonObject | undefined)?.QueueName === name);
    },
    expectViolation: /standby: the relay failure queue StandbyRelayFailuresQueue has no alarm/,
  },
  {
    what: "the stream job told the relay's failure queue (a skipped batch hides among the relay's pointers)",
    invariant: failureQueuePerConsumer,
    on: scenario("home-dev"),
    breakIt: (c) => {
      const vars = (fn(c, "PrimaryLedgerStream").inputs.environment as JsonObject).variables as JsonObject;
      vars.STREAM_JOB_FAILURES_QUEUE_URL = resourceOf(c, "aws:sqs/queue:Queue", "PrimaryRelayFailuresQueue")
        .state.url as string;
    },
    expectViolation: /primary: the relay and the stream job share one failure queue/,
  },
  {
    what: "a sixth filter on the ledger stream mapping (Lambda allows five)",
    invariant: filtersWithinQuota,
    on: scenario("home-dev"),
    breakIt: (c) => {
      const criteria = subscription(c, "Primary").inputs.filterCriteria as { filters: unknown[] };
      criteria.filters = [...criteria.filters, ...criteria.filters.slice(0, 2)];
    },
    expectViolation: /PrimaryLedgerStreamSubscription has 6 filters; Lambda allows 5/,
  },
];
