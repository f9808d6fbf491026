/**
 * Break-on-purpose cases for what a first deploy would hit (issue 27): the events queue at scale, alarms that page,
 * a production look-alike stage deployed as production, and the not-run alarm on a new stage.
 */
import type { Capture, JsonObject } from "./capture";
import { eventsQueueAtScale } from "./events-queue-invariant";
import { protection, pushAndEmail } from "./invariants";
import { type Mutation, resourceOf } from "./mutation";
import { onCallAlarms } from "./on-call-invariant";
import { nightlyReconcile } from "./reconcile-invariant";
import { SCENARIOS } from "./scenarios";

const scenario = (name: string) => {
  const found = SCENARIOS.find((s) => s.scenario.name === name);
  if (!found) throw new Error(`no scenario ${name}`);
  return found;
};
const HOME = scenario("home-dev");
const MRSC = scenario("mrsc-production");
const SINGLE = scenario("single-region-staging");
const LIVE = scenario("live-stated-production");

const queue = (c: Capture, name: string) => resourceOf(c, "aws:sqs/queue:Queue", `${name}Queue`);
const fn = (c: Capture, name: string) => resourceOf(c, "aws:lambda/function:Function", `${name}Function`);
const alarm = (c: Capture, name: string) => resourceOf(c, "aws:cloudwatch/metricAlarm:MetricAlarm", name);
const topic = (c: Capture, prefix: string) => resourceOf(c, "aws:sns/topic:Topic", `${prefix}OnCallTopic`);
const subscription = (c: Capture, name: string) =>
  resourceOf(c, "aws:sns/topicSubscription:TopicSubscription", name);

const EVENTS_QUEUE: Mutation[] = [
  {
    what: "the events queue deduplicating across the queue (a FIFO queue of about 300 sends/s)",
    invariant: eventsQueueAtScale,
    on: HOME,
    breakIt: (c) => {
      queue(c, "StandbyEvents").inputs.deduplicationScope = "queue";
    },
    expectViolation: /standby: the events queue deduplicates per queue, not per message group/,
  },
  {
    what: "the events queue's throughput quota per queue",
    invariant: eventsQueueAtScale,
    on: MRSC,
    breakIt: (c) => {
      delete queue(c, "PrimaryEvents").inputs.fifoThroughputLimit;
    },
    expectViolation: /primary: the events queue's throughput quota is per queue, not per group/,
  },
  {
    what: "the events queue's visibility back at 1.5× the worker's timeout (30 s)",
    invariant: eventsQueueAtScale,
    on: HOME,
    breakIt: (c) => {
      queue(c, "PrimaryEvents").inputs.visibilityTimeoutSeconds = 30;
    },
    expectViolation: /primary: the events queue's visibility timeout is 30 s, below 6× the worker's 20 s/,
  },
  {
    what: "the worker's timeout raised without the queue's visibility",
    invariant: eventsQueueAtScale,
    on: SINGLE,
    breakIt: (c) => {
      fn(c, "StandbyNotifyWorker").inputs.timeout = 60;
    },
    expectViolation: /standby: the events queue's visibility timeout is 120 s, below 6× the worker's 60 s/,
  },
];

const ON_CALL: Mutation[] = [
  {
    what: "the not-run alarm without an action (nobody is paged)",
    invariant: onCallAlarms,
    on: HOME,
    breakIt: (c) => {
      delete alarm(c, "PrimaryReconcileNotRunAlarm").inputs.alarmActions;
    },
    expectViolation:
      /primary: PrimaryReconcileNotRunAlarm alarmActions are \[\], expected the Region's on-call topic/,
  },
  {
    what: "the discrepancy alarm that never says it is OK again",
    invariant: onCallAlarms,
    on: MRSC,
    breakIt: (c) => {
      alarm(c, "StandbyReconcileDiscrepanciesAlarm").inputs.okActions = [];
    },
    expectViolation: /standby: StandbyReconcileDiscrepanciesAlarm okActions are \[\]/,
  },
  {
    what: "a standby alarm acting on the primary Region's topic (CloudWatch refuses a topic of another Region)",
    invariant: onCallAlarms,
    on: HOME,
    breakIt: (c) => {
      alarm(c, "StandbyReconcileNotRunAlarm").inputs.alarmActions = [topic(c, "Primary").state.arn as string];
    },
    expectViolation: /standby: StandbyReconcileNotRunAlarm alarmActions are \[arn:aws:sns:us-east-1:/,
  },
  {
    what: "an alarm added later without the topic",
    invariant: onCallAlarms,
    on: LIVE,
    breakIt: (c) => {
      const added = structuredClone(alarm(c, "PrimaryReconcileDiscrepanciesAlarm"));
      added.name = "PrimaryLaterAlarm";
      delete added.inputs.alarmActions;
      delete added.inputs.okActions;
      c.resources.push(added);
    },
    expectViolation: /primary: PrimaryLaterAlarm alarmActions are \[\]/,
  },
  {
    what: "the standby topic without its HTTPS subscription",
    invariant: onCallAlarms,
    on: MRSC,
    breakIt: (c) => {
      const https = subscription(c, "StandbyOnCallHttps");
      c.resources = c.resources.filter((r) => r !== https);
    },
    expectViolation:
      /standby: the on-call topic's subscriptions are \[email oncall@example\.org\], expected \[email/,
  },
  {
    what: "an email subscription nobody configured",
    invariant: onCallAlarms,
    on: SINGLE,
    breakIt: (c) => {
      const t = topic(c, "Primary");
      c.resources.push({
        ...structuredClone(t),
        type: "aws:sns/topicSubscription:TopicSubscription",
        name: "PrimaryOnCallExtra",
        inputs: { topic: t.state.arn as string, protocol: "email", endpoint: "someone@example.net" },
      });
    },
    expectViolation:
      /primary: the on-call topic's subscriptions are \[email someone@example\.net\], expected \[\]/,
  },
  {
    what: "the stage outputs without the on-call topics",
    invariant: onCallAlarms,
    on: HOME,
    breakIt: (c) => {
      delete (c.outputs as JsonObject).onCallTopics;
    },
    expectViolation: /outputs: onCallTopics\.primary is undefined, not the topic/,
  },
];

const STAGE_AND_ALARMS: Mutation[] = [
  {
    what: "a stated-production stage given the APNs sandbox (production device tokens rejected)",
    invariant: pushAndEmail,
    on: LIVE,
    breakIt: (c) => {
      resourceOf(c, "aws:sns/platformApplication:PlatformApplication", "PrimaryPushApns").inputs.platform =
        "APNS_SANDBOX";
    },
    expectViolation: /primary: push platforms are APNS_SANDBOX, GCM, expected APNS and GCM/,
  },
  {
    what: "a stated-production stage that `sst remove` would delete",
    invariant: protection,
    on: LIVE,
    breakIt: (c) => {
      c.app.removal = "remove";
      c.app.protect = false;
    },
    expectViolation: /removal is remove|protect is false/,
  },
  {
    what: "the not-run alarm on the runs alone (an hour without a run is missing data: a night without one never pages)",
    invariant: nightlyReconcile,
    on: MRSC,
    breakIt: (c) => {
      const a = alarm(c, "StandbyReconcileNotRunAlarm");
      a.inputs.metricQueries = [
        { id: "runs", metric: (a.inputs.metricQueries as JsonObject[])[0]?.metric ?? null, returnData: true },
      ];
    },
    expectViolation: /standby: no alarm when no reconcile finished for a day while the Region's resolver ran/,
  },
];

/** Every case of this issue's invariants, added to the mocks test's list. */
export const DEPLOY_GRADE_MUTATIONS: Mutation[] = [...EVENTS_QUEUE, ...ON_CALL, ...STAGE_AND_ALARMS];
