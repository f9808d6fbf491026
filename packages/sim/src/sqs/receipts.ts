import { badValue, invalidParameterValue, messageNotInflight, receiptHandleIsInvalid } from "./errors";
import type { StoredMessage } from "./message";
import type { Queue } from "./queue";
import { parseReceipt } from "./receive";

/** The longest a message may stay hidden, counted from the receive that hid it. */
const MAX_VISIBILITY_MS = 43_200_000;

const expired = (handle: string) => badValue("ReceiptHandle", handle, "The receipt handle has expired.");
const notAvailable = (handle: string) =>
  badValue(
    "ReceiptHandle",
    handle,
    "Message does not exist or is not available for visibility timeout change.",
  );

/** The message a handle names in this queue; undefined when it is gone (deleted, moved, expired). */
function lookup(queue: Queue, handle: string): { m?: StoredMessage; receiptNo: number } {
  const parsed = parseReceipt(handle);
  if (!parsed || parsed.queue !== queue.name) throw receiptHandleIsInvalid(handle);
  return { m: queue.messages.get(parsed.seq), receiptNo: parsed.receiptNo };
}

/**
 * Deletes the message a receipt handle names. A handle from an earlier receive of the message: on a FIFO queue it
 * expired when its visibility ended (InvalidParameterValue, "The receipt handle has expired", as AWS answers); on a
 * standard queue the call succeeds and the message stays (AWS: "the request will still succeed, but the message
 * might not be deleted"; the model takes the case where it is not). Deleting a message already gone succeeds.
 * Answers the deleted message, if one was.
 */
export function deleteByReceipt(queue: Queue, handle: string, now: number): StoredMessage | undefined {
  const { m, receiptNo } = lookup(queue, handle);
  if (!m) return undefined;
  if (receiptNo !== m.receiptNo) {
    if (queue.fifo) throw expired(handle);
    return undefined;
  }
  if (queue.fifo && now >= m.receiptExpiresAt) throw expired(handle);
  queue.messages.delete(m.seq);
  return m;
}

/**
 * Changes a received message's visibility from now on. Refused as SQS refuses it: a message not in flight
 * (MessageNotInflight), an expired FIFO handle, or a total beyond 12 hours from the receive.
 */
export function changeVisibility(
  queue: Queue,
  handle: string,
  timeoutS: number | undefined,
  now: number,
): StoredMessage {
  if (timeoutS === undefined)
    throw invalidParameterValue("The request must contain the parameter VisibilityTimeout.");
  if (!Number.isInteger(timeoutS) || timeoutS < 0 || timeoutS > 43_200)
    throw badValue("VisibilityTimeout", timeoutS, "Must be between 0 and 43200, if provided.");
  const { m, receiptNo } = lookup(queue, handle);
  if (!m) throw notAvailable(handle);
  if (receiptNo !== m.receiptNo) throw queue.fifo ? expired(handle) : notAvailable(handle);
  if (queue.fifo && now >= m.receiptExpiresAt) throw expired(handle);
  if (m.visibleAt <= now) throw messageNotInflight();
  const until = now + timeoutS * 1000;
  if (until - m.receivedAt > MAX_VISIBILITY_MS)
    throw badValue(
      "VisibilityTimeout",
      timeoutS,
      "Total VisibilityTimeout for the message is beyond the limit [43200 seconds]",
    );
  m.visibleAt = until;
  m.receiptExpiresAt = until;
  return m;
}
