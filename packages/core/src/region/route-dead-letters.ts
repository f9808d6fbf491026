import { DeleteMessageCommand, type Message, ReceiveMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import type { RegionRole } from "../config/switches";
import { type EventPublisher, queueDedupIdOf } from "../outbox/event-publisher";
import { parsePaymentEvent } from "../outbox/payment-event";
import type { ActiveRegion } from "./active-region";

/** What a Region's sweep did with its events DLQ. */
export interface DeadLetterRouting {
  /** Sent to the active Region's queue: the other Region's when this one is passive, its own when it is active. */
  routed: number;
  /** Left in the DLQ for a person (entry "Messages in the events DLQ"): no event at all, or out of rounds. */
  kept: number;
  /** Where they went. */
  to?: "own-queue" | "peer-queue";
}

/** The message attribute that counts how many times the sweeps took one event out of a DLQ. */
export const DEAD_LETTER_ROUNDS = "eo-dead-letter-rounds";

/**
 * How many times the sweeps take one event out of a DLQ before they leave it for a person. A partition makes a
 * worker refuse every delivery (it cannot read the authority), so its events end in the DLQ however long the cut
 * lasts: each partition costs one round. An event that fails for another reason (a poison one) fails again in
 * the active Region and comes back; after this many rounds it stays, and `DlqArrivals` keeps paging.
 */
export const MAX_DEAD_LETTER_ROUNDS = 3;

/**
 * The dedup id of a routed dead letter: stable within one round (a repeat after a lost delete is one message),
 * new for each round, and neither the event id nor the worker's hand-over id, which the target queue may have seen
 * within its 5-minute window from a copy that did not finish the event (SQS would drop this one).
 */
export const deadLetterDedupId = (eventId: string, round: number): string =>
  `${eventId}:dead-letter:${round}`;

/**
 * EO_TEST_UNSAFE_ACTIVE_KEEPS_DEAD_LETTERS=1 brings back the earlier rule: only a passive Region routes its DLQ,
 * so an event refused in a partition stays in the DLQ of a Region that is active again.
 */
export const unsafeActiveKeepsDeadLetters = (): boolean =>
  process.env.EO_TEST_UNSAFE_ACTIVE_KEEPS_DEAD_LETTERS === "1";

const MAX_MESSAGES = 100;

const roundsOf = (m: Message): number =>
  Number(m.MessageAttributes?.[DEAD_LETTER_ROUNDS]?.StringValue ?? 0) || 0;

/**
 * Takes what this Region's events DLQ holds to the Region the authority names: the other Region's queue when this
 * one is passive, its own queue when it is active, each event with its event id (the active inbox applies each
 * once) and one more round on its count. A Region that cannot read the authority, or that the authority names but
 * may not act yet (`active_from`), leaves the DLQ alone. FIFO order holds in the DLQ too: a kept message holds its
 * merchant's later dead letters back until a person deals with it, as the merchant's events must apply in order.
 * Bounded per run; the next sweep goes on.
 */
export async function routeDeadLetters(
  gate: ActiveRegion,
  own: RegionRole,
  queues: { dlqUrl?: string; ownQueue?: EventPublisher; peerQueue?: EventPublisher },
  sqs: SQSClient = new SQSClient({ maxAttempts: 3, useQueueUrlAsEndpoint: false }),
): Promise<DeadLetterRouting> {
  const done: DeadLetterRouting = { routed: 0, kept: 0 };
  const target = await targetOf(gate, own, queues);
  if (!queues.dlqUrl || !target) return done;
  done.to = target.to;
  while (done.routed + done.kept < MAX_MESSAGES) {
    const out = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queues.dlqUrl,
        MaxNumberOfMessages: 10,
        MessageAttributeNames: [DEAD_LETTER_ROUNDS],
        VisibilityTimeout: 60,
        WaitTimeSeconds: 0,
      }),
    );
    const messages = out.Messages ?? [];
    if (messages.length === 0) break;
    for (const m of messages) {
      if (!(await routeOne(m, target.queue))) {
        done.kept += 1;
        continue;
      }
      await sqs.send(new DeleteMessageCommand({ QueueUrl: queues.dlqUrl, ReceiptHandle: m.ReceiptHandle }));
      done.routed += 1;
    }
  }
  return done;
}

async function targetOf(
  gate: ActiveRegion,
  own: RegionRole,
  queues: { ownQueue?: EventPublisher; peerQueue?: EventPublisher },
): Promise<{ to: "own-queue" | "peer-queue"; queue: EventPublisher } | undefined> {
  const control = await gate.control().catch(() => undefined);
  if (!control) return undefined;
  if (control.active !== own)
    return queues.peerQueue ? { to: "peer-queue", queue: queues.peerQueue } : undefined;
  if (unsafeActiveKeepsDeadLetters() || !queues.ownQueue) return undefined;
  return (await gate.isActive().catch(() => false)) ? { to: "own-queue", queue: queues.ownQueue } : undefined;
}

async function routeOne(m: Message, queue: EventPublisher): Promise<boolean> {
  const round = roundsOf(m) + 1;
  if (round > MAX_DEAD_LETTER_ROUNDS) return false;
  try {
    const event = parsePaymentEvent(m.Body ?? "");
    await queue.publish(event, {
      dedupId: deadLetterDedupId(queueDedupIdOf(event), round),
      deadLetterRounds: round,
    });
    return true;
  } catch {
    return false;
  }
}
