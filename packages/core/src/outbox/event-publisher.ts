import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { PaymentEvent } from "./payment-event";

/** Where the relay and the sweep send events. */
export interface EventPublisher {
  /**
   * Sends one event; the answer is the queue's message id (a repeat inside the dedup window gets the first one's).
   * The dedup id is the event id unless a sender with its own window names another (the hand-over between Regions,
   * a dead letter routed again, which also carries its round count).
   */
  publish(event: PaymentEvent, options?: PublishOptions): Promise<{ messageId: string }>;
}

/** How a sender other than the relay marks what it sends. */
export interface PublishOptions {
  dedupId?: string;
  /** Set on a dead letter routed out of a DLQ: the `eo-dead-letter-rounds` attribute. */
  deadLetterRounds?: number;
}

/**
 * The queue's dedup id of an event: its id, or for a notice-only `payment.refund_failed` the id marked as a notice.
 * A notice and the take-back of the same refund failure share the event id (`move-items.ts` refundFailed, and
 * `DynamoLedger.catchUp` when each Region wrote one half of it), and the inbox keeps them apart (NOTICE# beside
 * CREDIT#); under one dedup id SQS dropped the take-back sent within 5 minutes of the notice, and the merchant stayed
 * debited for a refund Stripe failed (sim seed 882003, schedule 1476).
 */
export const queueDedupIdOf = (event: Pick<PaymentEvent, "event_id" | "notice_only">): string =>
  event.notice_only ? `${event.event_id}:notice` : event.event_id;

/**
 * The SQS FIFO queue: the dedup id is the event id stored in the outbox item, never one made up at send time,
 * and the group is the merchant, so that one merchant's events are applied in order (Part 6).
 */
export class SqsEventPublisher implements EventPublisher {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {
    if (!queueUrl) throw new Error("EVENTS_QUEUE_URL is not set: the relay has nowhere to send");
  }

  async publish(event: PaymentEvent, options: PublishOptions = {}): Promise<{ messageId: string }> {
    const rounds = options.deadLetterRounds;
    const out = await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(event),
        MessageDeduplicationId: options.dedupId ?? queueDedupIdOf(event),
        MessageGroupId: event.merchant_id,
        ...(rounds
          ? {
              MessageAttributes: {
                "eo-dead-letter-rounds": { DataType: "Number", StringValue: String(rounds) },
              },
            }
          : {}),
      }),
    );
    return { messageId: out.MessageId ?? "" };
  }
}
