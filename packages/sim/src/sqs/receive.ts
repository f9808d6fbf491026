import { badValue, sqsUnsupported } from "./errors";
import { type AttributeValue, md5Hex, md5OfAttributes, type StoredMessage } from "./message";
import type { Queue } from "./queue";

/** ReceiveMessage's parameters, as the model reads them. */
export interface ReceiveInput {
  QueueUrl?: string;
  AttributeNames?: string[];
  MessageSystemAttributeNames?: string[];
  MessageAttributeNames?: string[];
  MaxNumberOfMessages?: number;
  VisibilityTimeout?: number;
  WaitTimeSeconds?: number;
  ReceiveRequestAttemptId?: string;
}

/** One received message, shaped as ReceiveMessage returns it. */
export interface ReceivedMessage {
  MessageId: string;
  ReceiptHandle: string;
  MD5OfBody: string;
  Body: string;
  Attributes?: Record<string, string>;
  MD5OfMessageAttributes?: string;
  MessageAttributes?: Record<string, AttributeValue>;
}

/** What a receive needs from the model. */
export interface ReceiveContext {
  now: number;
  queueByArn(arn: string): Queue | undefined;
  /** Moves a message that ran out of receives into its dead-letter queue. */
  moveToDeadLetter(from: Queue, to: Queue, m: StoredMessage): void;
}

const SYSTEM_NAMES = [
  "SenderId",
  "SentTimestamp",
  "ApproximateReceiveCount",
  "ApproximateFirstReceiveTimestamp",
  "SequenceNumber",
  "MessageDeduplicationId",
  "MessageGroupId",
  "DeadLetterQueueSourceArn",
];

/** Checks ReceiveMessage's numbers as SQS does; the long-poll wait is returned in seconds. */
export function checkReceive(
  queue: Queue,
  input: ReceiveInput,
): { max: number; visibilityS: number; waitS: number } {
  if (input.ReceiveRequestAttemptId !== undefined)
    throw sqsUnsupported("ReceiveRequestAttemptId (FIFO receive retries)");
  const max = input.MaxNumberOfMessages ?? 1;
  if (!Number.isInteger(max) || max < 1 || max > 10)
    throw badValue("MaxNumberOfMessages", max, "Must be between 1 and 10, if provided.");
  const visibilityS = input.VisibilityTimeout ?? queue.settings.visibilityTimeoutS;
  if (visibilityS < 0 || visibilityS > 43_200)
    throw badValue("VisibilityTimeout", visibilityS, "Must be between 0 and 43200, if provided.");
  const waitS = input.WaitTimeSeconds ?? queue.settings.receiveWaitS;
  if (waitS < 0 || waitS > 20)
    throw badValue("WaitTimeSeconds", waitS, "Must be >= 0 and <= 20, if provided.");
  for (const name of [...(input.AttributeNames ?? []), ...(input.MessageSystemAttributeNames ?? [])])
    if (name !== "All" && !SYSTEM_NAMES.includes(name) && name !== "AWSTraceHeader")
      throw badValue("AttributeNames", name, "Unknown attribute name.");
  return { max, visibilityS, waitS };
}

/**
 * Takes up to `max` messages: each gets a new receipt handle and hides for the visibility timeout. A message
 * whose receive count already reached the redrive policy's maxReceiveCount moves to the dead-letter queue instead
 * (as SQS does, on the receive that would exceed it), and the receive goes on with the next candidate.
 */
export function takeMessages(
  ctx: ReceiveContext,
  queue: Queue,
  input: ReceiveInput,
  max: number,
  visibilityS: number,
): ReceivedMessage[] {
  const out: ReceivedMessage[] = [];
  const dlq = deadLetterQueueOf(ctx, queue);
  for (;;) {
    const batch = queue.candidates(ctx.now, max - out.length);
    if (batch.length === 0) break;
    let moved = false;
    for (const m of batch) {
      if (dlq && m.receiveCount >= (queue.settings.redrive?.maxReceiveCount ?? Number.POSITIVE_INFINITY)) {
        ctx.moveToDeadLetter(queue, dlq, m);
        moved = true;
        continue;
      }
      deliver(m, ctx.now, visibilityS);
      out.push(shape(queue, m, input));
    }
    if (!moved || out.length >= max) break;
  }
  return out;
}

function deadLetterQueueOf(ctx: ReceiveContext, queue: Queue): Queue | undefined {
  const arn = queue.settings.redrive?.deadLetterTargetArn;
  return arn ? ctx.queueByArn(arn) : undefined;
}

function deliver(m: StoredMessage, now: number, visibilityS: number): void {
  m.receiveCount += 1;
  m.firstReceivedAt ??= now;
  m.receiptNo = m.receiveCount;
  m.receivedAt = now;
  m.visibleAt = now + visibilityS * 1000;
  m.receiptExpiresAt = m.visibleAt;
}

/** The receipt handle of a message's current receive: opaque to callers, parsed back by `parseReceipt`. */
export function receiptOf(queue: Queue, m: StoredMessage): string {
  return `rh:${queue.name}:${m.seq}:${m.receiptNo}`;
}

/** The queue name, message key and receive number a handle names, or undefined when it is not one of ours. */
export function parseReceipt(handle: string): { queue: string; seq: number; receiptNo: number } | undefined {
  const match = /^rh:([A-Za-z0-9_.-]{1,80}):(\d+):(\d+)$/.exec(handle);
  if (!match) return undefined;
  return { queue: match[1] as string, seq: Number(match[2]), receiptNo: Number(match[3]) };
}

function shape(queue: Queue, m: StoredMessage, input: ReceiveInput): ReceivedMessage {
  const out: ReceivedMessage = {
    MessageId: m.messageId,
    ReceiptHandle: receiptOf(queue, m),
    MD5OfBody: md5Hex(m.body),
    Body: m.body,
  };
  const system = systemAttributes(m, [
    ...(input.AttributeNames ?? []),
    ...(input.MessageSystemAttributeNames ?? []),
  ]);
  if (Object.keys(system).length > 0) out.Attributes = system;
  const attrs = selectAttributes(m.attributes, input.MessageAttributeNames ?? []);
  if (Object.keys(attrs).length > 0) {
    out.MessageAttributes = attrs;
    out.MD5OfMessageAttributes = md5OfAttributes(attrs);
  }
  return out;
}

function systemAttributes(m: StoredMessage, names: string[]): Record<string, string> {
  const all = names.includes("All");
  const want = (n: string) => all || names.includes(n);
  const out: Record<string, string> = {};
  const put = (n: string, v: string | undefined) => {
    if (v !== undefined && want(n)) out[n] = v;
  };
  put("SenderId", "AIDAMODELSENDER00000");
  put("SentTimestamp", String(m.sentAt));
  put("ApproximateReceiveCount", String(m.receiveCount));
  put(
    "ApproximateFirstReceiveTimestamp",
    m.firstReceivedAt === undefined ? undefined : String(m.firstReceivedAt),
  );
  put("SequenceNumber", m.sequenceNumber);
  put("MessageDeduplicationId", m.dedupId);
  put("MessageGroupId", m.groupId);
  put("DeadLetterQueueSourceArn", m.deadLetterSourceArn);
  return out;
}

/** The message attributes a receive asked for: All or `.*`, exact names, or `prefix.*`. */
function selectAttributes(
  attrs: Record<string, AttributeValue>,
  names: string[],
): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const [name, value] of Object.entries(attrs)) {
    const wanted = names.some(
      (n) => n === "All" || n === ".*" || n === name || (n.endsWith(".*") && name.startsWith(n.slice(0, -1))),
    );
    if (wanted) out[name] = value;
  }
  return out;
}
