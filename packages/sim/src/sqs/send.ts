import { createHash } from "node:crypto";
import { badValue, invalidMessageContents, invalidParameterValue, missingParameter } from "./errors";
import {
  type AttributeValue,
  checkAttributes,
  md5Hex,
  md5OfAttributes,
  messageSize,
  refuseSystemAttributes,
  sequenceNumberOf,
  validBody,
} from "./message";
import type { Queue } from "./queue";

/** One message to send, as SendMessage or a SendMessageBatch entry names it. */
export interface SendInput {
  MessageBody?: string;
  DelaySeconds?: number;
  MessageAttributes?: Record<string, AttributeValue>;
  MessageSystemAttributes?: Record<string, unknown>;
  MessageDeduplicationId?: string;
  MessageGroupId?: string;
}

/** What SendMessage answers. */
export interface SendOutput {
  MessageId: string;
  MD5OfMessageBody: string;
  MD5OfMessageAttributes?: string;
  SequenceNumber?: string;
}

/** What a send needs from the model: the time, the next ids, and a way to wake pollers. */
export interface SendContext {
  now: number;
  nextSeq(): number;
  nextMessageId(): string;
  announce(queue: Queue): void;
}

/**
 * Stores one message, or recognises a duplicate: inside the 5-minute interval a FIFO queue answers a repeated
 * deduplication id with success and the original message's ids, and stores nothing.
 */
export function sendMessage(ctx: SendContext, queue: Queue, input: SendInput): SendOutput {
  const body = input.MessageBody;
  const attrs = input.MessageAttributes ?? {};
  check(queue, input, body, attrs);
  const md5 = { MD5OfMessageBody: md5Hex(body as string), MD5OfMessageAttributes: md5OfAttributes(attrs) };
  let dedupKey: string | undefined;
  if (queue.fifo) {
    const dedupId = input.MessageDeduplicationId ?? sha256Hex(body as string);
    dedupKey = queue.dedupKey(input.MessageGroupId, dedupId);
    const original = queue.duplicateOf(dedupKey, ctx.now);
    if (original) return { MessageId: original.messageId, ...md5, SequenceNumber: original.sequenceNumber };
  }
  const seq = ctx.nextSeq();
  const messageId = ctx.nextMessageId();
  const sequenceNumber = queue.fifo ? sequenceNumberOf(++queue.sequence) : undefined;
  const delayS = input.DelaySeconds ?? queue.settings.delayS;
  queue.messages.set(seq, {
    seq,
    messageId,
    body: body as string,
    attributes: attrs,
    groupId: input.MessageGroupId,
    dedupId: queue.fifo ? (input.MessageDeduplicationId ?? sha256Hex(body as string)) : undefined,
    sequenceNumber,
    sentAt: ctx.now,
    enqueuedAt: ctx.now,
    visibleAt: ctx.now + delayS * 1000,
    receiveCount: 0,
    receiptNo: 0,
    receiptExpiresAt: 0,
    receivedAt: 0,
  });
  if (dedupKey !== undefined) queue.dedup.set(dedupKey, { at: ctx.now, messageId, sequenceNumber });
  if (delayS === 0) ctx.announce(queue);
  return { MessageId: messageId, ...md5, ...(sequenceNumber ? { SequenceNumber: sequenceNumber } : {}) };
}

function check(
  queue: Queue,
  input: SendInput,
  body: string | undefined,
  attrs: Record<string, AttributeValue>,
): void {
  if (body === undefined) throw missingParameter("MessageBody");
  if (body.length === 0) throw invalidParameterValue("The request must contain the parameter MessageBody.");
  if (!validBody(body))
    throw invalidMessageContents(
      "Invalid binary character in the message body. Allowed: #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF",
    );
  checkAttributes(attrs);
  refuseSystemAttributes(input.MessageSystemAttributes);
  const size = messageSize(body, attrs);
  if (size > queue.settings.maximumMessageSize)
    throw invalidParameterValue(
      `One or more parameters are invalid. Reason: Message must be shorter than ${queue.settings.maximumMessageSize} bytes.`,
    );
  if (input.DelaySeconds !== undefined && (input.DelaySeconds < 0 || input.DelaySeconds > 900))
    throw badValue("DelaySeconds", input.DelaySeconds, "Must be >= 0 and <= 900, if provided.");
  if (queue.fifo) checkFifo(queue, input);
  else if (input.MessageDeduplicationId !== undefined)
    throw badValue(
      "MessageDeduplicationId",
      input.MessageDeduplicationId,
      "The request includes a parameter that is not valid for this queue type.",
    );
}

function checkFifo(queue: Queue, input: SendInput): void {
  if (input.MessageGroupId === undefined) throw missingParameter("MessageGroupId");
  if (input.DelaySeconds !== undefined)
    throw badValue(
      "DelaySeconds",
      input.DelaySeconds,
      "The request includes a parameter that is not valid for this queue type.",
    );
  if (input.MessageDeduplicationId === undefined && !queue.settings.contentBasedDeduplication)
    throw invalidParameterValue(
      "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly",
    );
  for (const [name, value] of [
    ["MessageGroupId", input.MessageGroupId],
    ["MessageDeduplicationId", input.MessageDeduplicationId],
  ] as const)
    if (value !== undefined && !/^[\x21-\x7e]{1,128}$/.test(value))
      throw badValue(name, value, `${name} can contain up to 128 alphanumeric and punctuation characters.`);
}

/** Content-based deduplication's id: the SHA-256 of the body (not the attributes), as AWS documents. */
function sha256Hex(body: string): string {
  return createHash("sha256").update(body, "utf8").digest("hex");
}
