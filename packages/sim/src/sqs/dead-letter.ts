import { badValue } from "./errors";
import { type StoredMessage, sequenceNumberOf } from "./message";
import type { Queue } from "./queue";
import type { QueueSettings } from "./queue-settings";

/**
 * Moves a message into its dead-letter queue as SQS does: same ids, body, attributes and SentTimestamp, visible
 * there at once; a FIFO DLQ gives it a new sequence number and restarts its retention clock (AWS's DLQ retention
 * page), a standard one keeps the original enqueue time. The receive count carries over.
 */
export function moveToDeadLetter(from: Queue, to: Queue, m: StoredMessage, now: number): void {
  from.messages.delete(m.seq);
  to.messages.set(m.seq, {
    ...m,
    sequenceNumber: to.fifo ? sequenceNumberOf(++to.sequence) : m.sequenceNumber,
    enqueuedAt: to.fifo ? now : m.enqueuedAt,
    visibleAt: now,
    receiptNo: 0,
    receiptExpiresAt: 0,
    deadLetterSourceArn: from.arn,
  });
}

/** Refuses a redrive policy whose target is missing, is the queue itself, or is of the other queue type. */
export function checkRedrive(
  s: QueueSettings,
  queueByArn: (arn: string) => Queue | undefined,
  self?: Queue,
): void {
  if (!s.redrive) return;
  const target = queueByArn(s.redrive.deadLetterTargetArn);
  const value = JSON.stringify(s.redrive);
  if (!target || target === self)
    throw badValue("RedrivePolicy", value, "Dead letter target does not exist.");
  if (target.fifo !== s.fifo)
    throw badValue("RedrivePolicy", value, "Dead-letter queue must be same type of queue as the source.");
}
