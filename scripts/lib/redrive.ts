import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import { parsePaymentEvent } from "@eo/core";

/** What a redrive run needs. */
export interface RedriveOptions {
  sqs: SQSClient;
  dlqUrl: string;
  queueUrl: string;
  dryRun: boolean;
  /** The target queue's deduplication interval: SQS FIFO's is 300 s. */
  dedupWindowS: number;
  max: number;
  now: () => number;
  log: (line: string) => void;
}

/** What a run did; anything left in the DLQ is listed with its reason. */
export interface RedriveSummary {
  examined: number;
  moved: number;
  wouldMove: number;
  left: Array<{ messageId: string; reason: string }>;
}

/** A setup the script refuses to work with (wrong queues), before touching any message. */
export class UnsafeSetup extends Error {}

/** Checks that both queues are FIFO and that the target's redrive policy names this DLQ. */
export async function checkQueues(sqs: SQSClient, dlqUrl: string, queueUrl: string): Promise<void> {
  const attrs = async (url: string) =>
    (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["All"] }))).Attributes ??
    {};
  const [dlq, target] = await Promise.all([attrs(dlqUrl), attrs(queueUrl)]);
  if (dlq.FifoQueue !== "true" || target.FifoQueue !== "true")
    throw new UnsafeSetup("both queues must be FIFO queues");
  const policy = JSON.parse(target.RedrivePolicy ?? "{}") as { deadLetterTargetArn?: string };
  if (policy.deadLetterTargetArn !== dlq.QueueArn) {
    throw new UnsafeSetup(
      `${queueUrl} does not send its dead letters to ${dlqUrl}; refusing to move messages between unrelated queues`,
    );
  }
}

type Plan = { ok: true; dedupId: string; groupId: string; eventId?: string } | { ok: false; reason: string };

/**
 * Moves messages from the DLQ back to the queue with their original dedup and group ids, oldest first. A
 * message is left in the DLQ when its ids cannot be trusted, when the queue's dedup window since its first send
 * has not passed (SQS would accept the re-send and silently drop it), when the queue answers with the original
 * message id (it did drop it), or when an earlier message of its group was left (order is per group).
 */
export async function redrive(o: RedriveOptions): Promise<RedriveSummary> {
  const summary: RedriveSummary = { examined: 0, moved: 0, wouldMove: 0, left: [] };
  const held: Message[] = [];
  const blocked = new Set<string>();
  try {
    while (summary.examined < o.max) {
      const batch = await receive(o, Math.min(10, o.max - summary.examined));
      if (batch.length === 0) break;
      for (const msg of batch) {
        summary.examined += 1;
        const kept = await handle(o, msg, blocked, summary);
        if (kept) held.push(msg);
      }
    }
  } finally {
    // Left messages were hidden while the run lasted (so each is seen once); they become visible again now.
    for (const msg of held) await release(o, msg);
  }
  return summary;
}

async function handle(
  o: RedriveOptions,
  msg: Message,
  blocked: Set<string>,
  s: RedriveSummary,
): Promise<boolean> {
  const id = msg.MessageId ?? "?";
  const plan = planOf(msg, o.now(), o.dedupWindowS);
  const group = plan.ok ? plan.groupId : (msg.Attributes?.MessageGroupId ?? "?");
  const leave = (reason: string) => {
    s.left.push({ messageId: id, reason });
    blocked.add(group);
    o.log(`left   ${id} group=${group}: ${reason}`);
    return true;
  };
  if (blocked.has(group))
    return leave("an earlier message of its group stays in the DLQ, so this one waits behind it");
  if (!plan.ok) return leave(plan.reason);
  const what = `${id} event=${plan.eventId ?? "?"} group=${plan.groupId} dedup=${plan.dedupId}`;
  if (o.dryRun) {
    s.wouldMove += 1;
    o.log(`would move ${what}`);
    return true;
  }
  const sent = await o.sqs.send(
    new SendMessageCommand({
      QueueUrl: o.queueUrl,
      MessageBody: msg.Body ?? "",
      MessageAttributes: msg.MessageAttributes,
      MessageDeduplicationId: plan.dedupId,
      MessageGroupId: plan.groupId,
    }),
  );
  if (sent.MessageId === msg.MessageId)
    return leave("the queue answered with the original message id: it dropped the re-send as a duplicate");
  await o.sqs.send(new DeleteMessageCommand({ QueueUrl: o.dlqUrl, ReceiptHandle: msg.ReceiptHandle }));
  s.moved += 1;
  o.log(`moved  ${what} -> ${sent.MessageId}`);
  return false;
}

/** The ids to send with: the event id stored in the body is the original dedup id; the group must be the merchant. */
function planOf(msg: Message, now: number, windowS: number): Plan {
  const a = msg.Attributes ?? {};
  let event: ReturnType<typeof parsePaymentEvent> | undefined;
  try {
    event = parsePaymentEvent(msg.Body ?? "");
  } catch {
    event = undefined;
  }
  const dedupId = event?.event_id ?? a.MessageDeduplicationId;
  const groupId = a.MessageGroupId ?? event?.merchant_id;
  if (!dedupId || !groupId) return { ok: false, reason: "no event id or group id to send it with" };
  if (event && groupId !== event.merchant_id)
    return { ok: false, reason: `its group ${groupId} is not its merchant ${event.merchant_id}` };
  const sentAt = Number(a.SentTimestamp);
  if (!Number.isFinite(sentAt) || sentAt <= 0)
    return { ok: false, reason: "no SentTimestamp: cannot tell whether the dedup window has passed" };
  const safeAt = sentAt + windowS * 1000;
  if (now < safeAt) {
    return {
      ok: false,
      reason: `inside the queue's ${windowS}-second deduplication window until ${new Date(safeAt).toISOString()}; SQS would drop the re-send`,
    };
  }
  return { ok: true, dedupId, groupId, eventId: event?.event_id };
}

async function receive(o: RedriveOptions, max: number): Promise<Message[]> {
  const out = await o.sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: o.dlqUrl,
      MaxNumberOfMessages: max,
      WaitTimeSeconds: 1,
      VisibilityTimeout: 300,
      MessageSystemAttributeNames: ["All"],
      MessageAttributeNames: ["All"],
    }),
  );
  return out.Messages ?? [];
}

async function release(o: RedriveOptions, msg: Message): Promise<void> {
  await o.sqs
    .send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: o.dlqUrl,
        ReceiptHandle: msg.ReceiptHandle,
        VisibilityTimeout: 0,
      }),
    )
    .catch(() => undefined);
}
