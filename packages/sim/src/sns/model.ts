import type { SqsModel } from "../sqs/model";
import { counterIds, type MessagingModelOptions } from "../sqs/options";
import { sendMessage } from "../sqs/send";
import { envelope, messageFor, type Notification, type SnsAttribute } from "./envelope";
import { invalidParameter, notFound, SnsError, snsUnsupported } from "./errors";
import { PlatformEndpoints, type PushDelivery } from "./platform";
import { fifoKey, newTopic, PROTOCOLS, type Subscription, type Topic, topicOf } from "./topics";

/** Publish's parameters, as the model reads them. */
export interface PublishInput {
  TopicArn?: string;
  TargetArn?: string;
  PhoneNumber?: string;
  Message?: string;
  Subject?: string;
  MessageStructure?: string;
  MessageAttributes?: Record<string, SnsAttribute>;
  MessageGroupId?: string;
  MessageDeduplicationId?: string;
}

/** One delivery of a topic's message to one subscription: into a model queue (sqs) or recorded only. */
export interface TopicDelivery {
  messageId: string;
  topicArn: string;
  subscriptionArn: string;
  protocol: string;
  endpoint: string;
  body: string;
  at: number;
  /** Set when the delivery could not be made (the queue is gone); AWS would retry and then drop it. */
  error?: string;
}

const DEDUP_INTERVAL_MS = 300_000;
const MAX_MESSAGE_BYTES = 262_144;

/**
 * SNS in one process: topics (standard and FIFO) whose SQS subscriptions deliver into an SqsModel, other
 * protocols recorded, and mobile push (platform applications and endpoints) recorded as deliveries.
 */
export class SnsModel {
  readonly region: string;
  readonly account: string;
  readonly platform: PlatformEndpoints;
  private readonly topics = new Map<string, Topic>();
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly topicLog: TopicDelivery[] = [];
  private readonly pushLog: PushDelivery[] = [];
  private readonly nextId: () => string;

  constructor(private readonly o: MessagingModelOptions & { sqs?: SqsModel }) {
    this.region = o.region ?? o.sqs?.region ?? "us-east-1";
    this.account = o.account ?? o.sqs?.account ?? "000000000000";
    this.nextId = o.ids ?? counterIds("5e5e");
    this.platform = new PlatformEndpoints(`arn:aws:sns:${this.region}:${this.account}:`, this.nextId);
  }

  /** CreateTopic: the same name and attributes answer the same ARN. */
  createTopic(name: string, attributes: Record<string, string> = {}, tags: unknown[] = []): string {
    if (tags.length > 0) throw snsUnsupported("topic tags");
    const arn = `arn:aws:sns:${this.region}:${this.account}:${name}`;
    const topic = newTopic(arn, name, attributes);
    const existing = this.topics.get(arn);
    if (existing) {
      if (JSON.stringify(existing.attributes) !== JSON.stringify(topic.attributes))
        throw invalidParameter("Attributes Reason: Topic already exists with different attributes");
      return arn;
    }
    this.topics.set(arn, topic);
    return arn;
  }

  /** DeleteTopic, with its subscriptions. */
  deleteTopic(arn: string): void {
    this.topics.delete(arn);
    for (const [k, s] of this.subscriptions) if (s.topicArn === arn) this.subscriptions.delete(k);
  }

  /** Subscribe: confirmed at once; an SQS endpoint is a queue ARN in the SqsModel. */
  subscribe(
    topicArn: string,
    protocol: string,
    endpoint: string,
    attributes: Record<string, string> = {},
  ): string {
    const topic = topicOf(this.topics, topicArn);
    if (!PROTOCOLS.has(protocol))
      throw invalidParameter(`Amazon SNS does not support this protocol string: ${protocol}`);
    for (const k of Object.keys(attributes))
      if (k !== "RawMessageDelivery") throw snsUnsupported(`the subscription attribute ${k}`);
    if (protocol === "sqs") this.checkQueue(topic, endpoint);
    const same = [...this.subscriptions.values()].find(
      (s) => s.topicArn === topicArn && s.protocol === protocol && s.endpoint === endpoint,
    );
    if (same) return same.arn;
    const arn = `${topicArn}:${this.nextId()}`;
    this.subscriptions.set(arn, {
      arn,
      topicArn,
      protocol,
      endpoint,
      raw: attributes.RawMessageDelivery === "true",
    });
    return arn;
  }

  /** Unsubscribe. */
  unsubscribe(arn: string): void {
    if (!this.subscriptions.delete(arn)) throw notFound("Subscription does not exist");
  }

  /** ListSubscriptionsByTopic (one page). */
  subscriptionsOf(topicArn: string): Subscription[] {
    topicOf(this.topics, topicArn);
    return [...this.subscriptions.values()].filter((s) => s.topicArn === topicArn);
  }

  /** Publish to a topic (fan-out) or to a platform endpoint (a recorded push). */
  publish(input: PublishInput): { MessageId: string; SequenceNumber?: string } {
    const targets = [input.TopicArn, input.TargetArn, input.PhoneNumber].filter((t) => t !== undefined);
    if (input.PhoneNumber !== undefined) throw snsUnsupported("Publish to a PhoneNumber (SMS)");
    if (targets.length !== 1)
      throw invalidParameter("TopicArn or TargetArn Reason: exactly one must be specified");
    const message = input.Message;
    if (!message) throw invalidParameter("Empty message");
    if (Buffer.byteLength(message) > MAX_MESSAGE_BYTES) throw invalidParameter("Message too long");
    if (input.MessageStructure !== undefined && input.MessageStructure !== "json")
      throw invalidParameter("MessageStructure Reason: only json is allowed");
    if (input.TargetArn?.includes(":endpoint/")) return this.pushTo(input.TargetArn, message, input);
    return this.publishToTopic(input.TopicArn ?? input.TargetArn, message, input);
  }

  /** Every topic delivery so far, in order. */
  deliveries(): readonly TopicDelivery[] {
    return this.topicLog;
  }

  /** Every mobile push accepted so far, in order. */
  pushes(): readonly PushDelivery[] {
    return this.pushLog;
  }

  private pushTo(arn: string, message: string, input: PublishInput): { MessageId: string } {
    const attrs: Record<string, string> = {};
    for (const [k, a] of Object.entries(input.MessageAttributes ?? {})) attrs[k] = a.StringValue ?? "";
    const messageId = this.nextId();
    this.pushLog.push(
      this.platform.push(arn, message, input.MessageStructure, attrs, this.o.clock.now(), messageId),
    );
    return { MessageId: messageId };
  }

  private publishToTopic(
    arn: string | undefined,
    message: string,
    input: PublishInput,
  ): { MessageId: string; SequenceNumber?: string } {
    const topic = topicOf(this.topics, arn);
    const now = this.o.clock.now();
    let dedup: { key: string; dedupId: string } | undefined;
    if (topic.fifo) {
      dedup = fifoKey(topic, message, input.MessageGroupId, input.MessageDeduplicationId);
      const seen = topic.dedup.get(dedup.key);
      if (seen && now < seen.at + DEDUP_INTERVAL_MS)
        return { MessageId: seen.messageId, SequenceNumber: seen.sequenceNumber };
    } else if (input.MessageDeduplicationId !== undefined) {
      throw invalidParameter(
        "MessageDeduplicationId Reason: The request includes MessageDeduplicationId parameter that is not valid for this topic type",
      );
    }
    const n: Notification = {
      messageId: this.nextId(),
      topicArn: topic.arn,
      message,
      subject: input.Subject,
      structure: input.MessageStructure,
      attributes: input.MessageAttributes ?? {},
      sequenceNumber: topic.fifo ? (10n ** 19n + BigInt(++topic.sequence)).toString() : undefined,
      at: now,
    };
    if (input.MessageStructure === "json") messageFor(n, "default");
    if (dedup)
      topic.dedup.set(dedup.key, { at: now, messageId: n.messageId, sequenceNumber: n.sequenceNumber });
    for (const s of this.subscriptionsOf(topic.arn)) this.deliver(s, n, input.MessageGroupId, dedup?.dedupId);
    return { MessageId: n.messageId, ...(n.sequenceNumber ? { SequenceNumber: n.sequenceNumber } : {}) };
  }

  private deliver(s: Subscription, n: Notification, groupId?: string, dedupId?: string): void {
    const body = s.raw ? messageFor(n, s.protocol) : envelope(n, s.arn);
    const record: TopicDelivery = {
      messageId: n.messageId,
      topicArn: n.topicArn,
      subscriptionArn: s.arn,
      protocol: s.protocol,
      endpoint: s.endpoint,
      body,
      at: n.at,
    };
    if (s.protocol === "sqs") {
      const sqs = this.o.sqs;
      const queue = sqs?.queueByArn(s.endpoint);
      if (!sqs || !queue) record.error = `no queue ${s.endpoint}`;
      else
        sendMessage(sqs.sendContext(), queue, {
          MessageBody: body,
          MessageAttributes: s.raw ? n.attributes : undefined,
          MessageGroupId: groupId,
          MessageDeduplicationId: queue.fifo ? dedupId : undefined,
        });
    }
    this.topicLog.push(record);
  }

  private checkQueue(topic: Topic, queueArn: string): void {
    if (!queueArn.startsWith("arn:aws:sqs:")) throw invalidParameter("SQS endpoint ARN");
    const queue = this.o.sqs?.queueByArn(queueArn);
    if (!queue) return;
    if (queue.fifo !== topic.fifo)
      throw snsUnsupported(
        `a ${topic.fifo ? "FIFO" : "standard"} topic delivering to a ${queue.fifo ? "FIFO" : "standard"} queue`,
      );
  }
}

export { SnsError };
