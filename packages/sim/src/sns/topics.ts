import { createHash } from "node:crypto";
import { invalidParameter, notFound, snsUnsupported } from "./errors";

/** A topic: FIFO or standard, its subscriptions, and (FIFO) its deduplication memory. */
export interface Topic {
  arn: string;
  name: string;
  fifo: boolean;
  contentBasedDeduplication: boolean;
  scope: "Topic" | "MessageGroup";
  attributes: Record<string, string>;
  sequence: number;
  dedup: Map<string, { at: number; messageId: string; sequenceNumber?: string }>;
}

/** A subscription: confirmed at once in the model (see the docs for the difference from AWS). */
export interface Subscription {
  arn: string;
  topicArn: string;
  protocol: string;
  endpoint: string;
  raw: boolean;
}

/** Protocols the model accepts; every one but `sqs` is recorded, not delivered. */
export const PROTOCOLS = new Set([
  "sqs",
  "lambda",
  "http",
  "https",
  "email",
  "email-json",
  "sms",
  "application",
  "firehose",
]);

const TOPIC_ATTRIBUTES = new Set([
  "FifoTopic",
  "ContentBasedDeduplication",
  "DisplayName",
  "FifoThroughputScope",
]);

/** A new topic from CreateTopic's name and attributes, validated as SNS does. */
export function newTopic(arn: string, name: string, attributes: Record<string, string>): Topic {
  for (const k of Object.keys(attributes))
    if (!TOPIC_ATTRIBUTES.has(k)) throw snsUnsupported(`the topic attribute ${k}`);
  const fifo = attributes.FifoTopic === "true";
  if (!/^[A-Za-z0-9_-]{1,256}(\.fifo)?$/.test(name) || fifo !== name.endsWith(".fifo"))
    throw invalidParameter(
      "Topic Name Reason: Topic names must be made up of only uppercase and lowercase ASCII letters, numbers, underscores, and hyphens, and must be between 1 and 256 characters long; a FIFO topic's name ends with .fifo.",
    );
  return {
    arn,
    name,
    fifo,
    contentBasedDeduplication: attributes.ContentBasedDeduplication === "true",
    scope: attributes.FifoThroughputScope === "MessageGroup" ? "MessageGroup" : "Topic",
    attributes: { ...attributes },
    sequence: 0,
    dedup: new Map(),
  };
}

/** The deduplication key of a FIFO publish, or a refusal when it has no group or no dedup id. */
export function fifoKey(
  topic: Topic,
  message: string,
  groupId?: string,
  dedupId?: string,
): { key: string; dedupId: string } {
  if (!groupId) throw invalidParameter("The MessageGroupId parameter is required for FIFO topics");
  if (!dedupId && !topic.contentBasedDeduplication)
    throw invalidParameter(
      "The topic should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly",
    );
  const id = dedupId ?? createHash("sha256").update(message, "utf8").digest("hex");
  return { key: topic.scope === "MessageGroup" ? `${groupId}\u0000${id}` : id, dedupId: id };
}

/** The topic an ARN names, or SNS's NotFound. */
export function topicOf(topics: Map<string, Topic>, arn: string | undefined): Topic {
  const t = arn ? topics.get(arn) : undefined;
  if (!t) throw notFound("Topic does not exist");
  return t;
}
