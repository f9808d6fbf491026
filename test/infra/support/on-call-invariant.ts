/**
 * Alarms page someone: each Region has one on-call SNS topic, subscribed as the deploy's configuration says (an email
 * address, an HTTPS endpoint), and every alarm of the Region has that topic as its action on ALARM and on OK. Held
 * to the issue, not to the stacks: any alarm added later is held to it too.
 */
import type { CapturedResource } from "./capture";
import type { Invariant, View } from "./invariants";
import { arr, obj, str } from "./json";

const ROLES = ["primary", "standby"] as const;
type Role = (typeof ROLES)[number];
const TOPIC = "aws:sns/topic:Topic";
const SUBSCRIPTION = "aws:sns/topicSubscription:TopicSubscription";
const ALARMS = ["aws:cloudwatch/metricAlarm:MetricAlarm", "aws:cloudwatch/compositeAlarm:CompositeAlarm"];

/** The Region's on-call topic: the one topic of that Region that its alarms act on. */
export function onCallTopic(v: View, role: Role): CapturedResource[] {
  return v.ofType(TOPIC).filter((t) => v.regionOf(t) === v.region(role) && /OnCall/.test(t.name));
}

function subscriptionProblems(v: View, role: Role, topic: CapturedResource): string[] {
  const subs = v.ofType(SUBSCRIPTION).filter((s) => s.inputs.topic === topic.state.arn);
  const seen = subs.map((s) => `${s.inputs.protocol} ${s.inputs.endpoint}`).sort();
  const { email, httpsUrl } = v.expected.onCall;
  const want = [...(email ? [`email ${email}`] : []), ...(httpsUrl ? [`https ${httpsUrl}`] : [])].sort();
  const out: string[] = [];
  if (JSON.stringify(seen) !== JSON.stringify(want))
    out.push(
      `${role}: the on-call topic's subscriptions are [${seen.join(", ")}], expected [${want.join(", ")}]`,
    );
  for (const s of subs)
    if (v.regionOf(s) !== v.region(role))
      out.push(`${role}: ${s.name} is in ${v.regionOf(s)}, not with its topic`);
  return out;
}

function alarmProblems(v: View, role: Role, topicArn: string): string[] {
  const out: string[] = [];
  const alarms = ALARMS.flatMap((t) => v.ofType(t)).filter((a) => v.regionOf(a) === v.region(role));
  if (alarms.length === 0) out.push(`${role}: no alarm at all`);
  for (const a of alarms) {
    for (const key of ["alarmActions", "okActions"] as const) {
      const actions = arr(a.inputs[key]).map((x) => str(x));
      if (JSON.stringify(actions) !== JSON.stringify([topicArn]))
        out.push(
          `${role}: ${a.name} ${key} are [${actions.join(", ")}], expected the Region's on-call topic only`,
        );
    }
    if (a.inputs.actionsEnabled === false) out.push(`${role}: ${a.name} has its actions disabled`);
  }
  return out;
}

/** One on-call topic per Region, subscribed as configured, the ALARM and OK action of every alarm of its Region. */
export const onCallAlarms: Invariant = {
  name: "every alarm pages its Region's on-call topic, subscribed as configured",
  check(v) {
    const out: string[] = [];
    for (const role of ROLES) {
      const topics = onCallTopic(v, role);
      const topic = topics[0];
      if (topics.length !== 1 || !topic) {
        out.push(`${role}: ${topics.length} on-call topics in ${v.region(role)}, expected 1`);
        continue;
      }
      if (obj(topic.inputs).fifoTopic === true)
        out.push(`${role}: the on-call topic is FIFO (alarms cannot use it)`);
      out.push(...subscriptionProblems(v, role, topic), ...alarmProblems(v, role, String(topic.state.arn)));
      // Exported, so that operators subscribe more endpoints and later alarms and dashboards name it.
      const output = obj(obj(v.capture.outputs).onCallTopics)[role];
      if (output !== topic.state.arn) out.push(`outputs: onCallTopics.${role} is ${output}, not the topic`);
    }
    return out;
  },
};
