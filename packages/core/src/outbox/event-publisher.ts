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
        MessageDeduplicationId: options.dedupId ?? event.event_id,
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
