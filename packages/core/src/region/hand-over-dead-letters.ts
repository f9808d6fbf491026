import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import type { RegionRole } from "../config/switches";
import type { EventPublisher } from "../outbox/event-publisher";
import { parsePaymentEvent } from "../outbox/payment-event";
import type { ActiveRegion } from "./active-region";
import { handOverDedupId } from "./hand-over-event";

/** What a passive Region's sweep did with its events DLQ. */
export interface DeadLetterHandOver {
  handed_over: number;
  /** Messages that are no event at all: left in the DLQ for a person (entry "Messages in the events DLQ"). */
  kept: number;
}

const MAX_MESSAGES = 100;

/**
 * Hands what a passive Region's events DLQ holds over to the active Region's queue. A worker that cannot read the
 * authority (a partition) refuses every delivery, so its events end in its DLQ however long the cut lasts; once the
 * Region reads the authority again and it names the other Region, they go where they can be applied, with their
 * event ids (the active inbox applies each once). Bounded per run; the next sweep goes on.
 */
export async function handOverDeadLetters(
  gate: ActiveRegion,
  own: RegionRole,
  dlqUrl: string | undefined,
  peerQueue: EventPublisher | undefined,
  sqs: SQSClient = new SQSClient({ maxAttempts: 3, useQueueUrlAsEndpoint: false }),
): Promise<DeadLetterHandOver> {
  const done: DeadLetterHandOver = { handed_over: 0, kept: 0 };
  if (!dlqUrl || !peerQueue) return done;
  const control = await gate.control().catch(() => undefined);
  if (!control || control.active === own) return done;
  while (done.handed_over + done.kept < MAX_MESSAGES) {
    const out = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: dlqUrl,
        MaxNumberOfMessages: 10,
        VisibilityTimeout: 60,
        WaitTimeSeconds: 0,
      }),
    );
    const messages = out.Messages ?? [];
    if (messages.length === 0) break;
    for (const m of messages) {
      try {
        const event = parsePaymentEvent(m.Body ?? "");
        await peerQueue.publish(event, handOverDedupId(event));
      } catch {
        done.kept += 1;
        continue;
      }
      await sqs.send(new DeleteMessageCommand({ QueueUrl: dlqUrl, ReceiptHandle: m.ReceiptHandle }));
      done.handed_over += 1;
    }
  }
  return done;
}
