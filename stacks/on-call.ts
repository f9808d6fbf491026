import type { RegionContext } from "./region-context";

/**
 * One Region's on-call topic: the action of every alarm of that Region (ALARM and OK), subscribed from the deploy's
 * configuration (ONCALL_EMAIL, ONCALL_HTTPS_URL; stacks/config.ts). CloudWatch alarms act only on a topic of their
 * own Region, hence one per Region. A linkable component, so that later alarms and dashboards can name it.
 */
export interface OnCall {
  topic: sst.aws.SnsTopic;
}

/** Creates the Region's on-call topic and its subscriptions (an email address, an HTTPS endpoint, or both). */
export function createOnCall(ctx: Pick<RegionContext, "prefix" | "provider" | "config">): OnCall {
  const opts = { provider: ctx.provider };
  // Not encrypted with a KMS key: CloudWatch could not publish to a topic under the AWS-managed SNS key.
  const topic = new sst.aws.SnsTopic(`${ctx.prefix}OnCall`, {}, opts);
  const { email, httpsUrl } = ctx.config.onCall;
  // Both wait for their owner to confirm (a link in the mail; a paging service's endpoint confirms by itself):
  // until then SNS delivers nothing to them, and the provider cannot delete them.
  if (email) {
    new aws.sns.TopicSubscription(
      `${ctx.prefix}OnCallEmail`,
      { topic: topic.arn, protocol: "email", endpoint: email },
      opts,
    );
  }
  if (httpsUrl) {
    new aws.sns.TopicSubscription(
      `${ctx.prefix}OnCallHttps`,
      { topic: topic.arn, protocol: "https", endpoint: httpsUrl },
      opts,
    );
  }
  return { topic };
}

/** What every alarm of a Region does: page on-call when it goes to ALARM, and tell them when it is OK again. */
export function onCallActions(onCall: OnCall) {
  return { actionsEnabled: true, alarmActions: [onCall.topic.arn], okActions: [onCall.topic.arn] };
}
