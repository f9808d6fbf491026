import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { isConditionFailure } from "../aws/document-client";
import { eventRecordKey, type StoredIntent } from "../inbox/event-record";
import type { PaymentEvent } from "../outbox/payment-event";
import { type Channel, type IntentState, intentsOf, type NotificationIntent } from "./intent";

/** The states an intent ends in. */
export type FinalIntentState = Exclude<IntentState, "PENDING">;

/** The email send record: written with the SENT mark as soon as the provider accepted the email. */
export interface EmailSendRecord {
  event_id: string;
  message_id: string;
  to: string;
  sent_at: number;
}

/** Reads intents and finishes them by compare-and-set; keeps the email send record with the email's mark. */
export interface IntentStore {
  /** The event's intents, by channel, from one read of its record. */
  read(event: PaymentEvent): Promise<Partial<Record<Channel, NotificationIntent>>>;
  /** Moves PENDING to a final state; false when it was no longer PENDING (someone else finished it). */
  finish(
    event: PaymentEvent,
    channel: Channel,
    state: FinalIntentState,
    now: number,
    reason?: string,
  ): Promise<boolean>;
  /**
   * Records an accepted email and marks its intent SENT in one write; false when the intent was no longer
   * PENDING (a concurrent sender got there first).
   */
  markEmailSent(event: PaymentEvent, record: EmailSendRecord, now: number): Promise<boolean>;
}

/**
 * Intents and the email send record as attributes of the event's record on the consumer table
 * (`intents.{channel}`, `email_send`), so that the marks are single-item updates of one small item.
 */
export class DynamoIntentStore implements IntentStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly shards: number,
  ) {}

  async read(event: PaymentEvent): Promise<Partial<Record<Channel, NotificationIntent>>> {
    const item = await this.record(event);
    const stored = (item?.intents ?? {}) as Partial<Record<Channel, StoredIntent>>;
    const out: Partial<Record<Channel, NotificationIntent>> = {};
    for (const [channel, one] of Object.entries(stored) as Array<[Channel, StoredIntent]>)
      out[channel] = intentOfRecord(event, channel, one);
    return out;
  }

  async finish(
    event: PaymentEvent,
    channel: Channel,
    state: FinalIntentState,
    now: number,
    reason?: string,
  ): Promise<boolean> {
    const set = ["intents.#ch.#state = :to", "intents.#ch.finished_at = :now"];
    if (reason) set.push("intents.#ch.reason = :reason");
    return this.conditional({
      UpdateExpression: `SET ${set.join(", ")}`,
      ConditionExpression: "intents.#ch.#state = :pending",
      ExpressionAttributeNames: { "#ch": channel, "#state": "state" },
      ExpressionAttributeValues: {
        ":to": state,
        ":pending": "PENDING",
        ":now": now,
        ...(reason ? { ":reason": reason } : {}),
      },
      event,
    });
  }

  // The send record and the mark were two writes while they were two items; on one item they are one update,
  // written as soon as the provider accepted, so the window in which a crash repeats an email is no wider.
  async markEmailSent(event: PaymentEvent, record: EmailSendRecord, now: number): Promise<boolean> {
    return this.conditional({
      UpdateExpression: "SET email_send = :rec, intents.#ch.#state = :to, intents.#ch.finished_at = :now",
      ConditionExpression: "intents.#ch.#state = :pending AND attribute_not_exists(email_send)",
      ExpressionAttributeNames: { "#ch": "email", "#state": "state" },
      ExpressionAttributeValues: { ":rec": record, ":to": "SENT", ":pending": "PENDING", ":now": now },
      event,
    });
  }

  private async record(event: PaymentEvent): Promise<Record<string, unknown> | undefined> {
    const out = await this.db.send(
      new GetCommand({
        TableName: this.table,
        Key: eventRecordKey(event, this.shards),
        ConsistentRead: true,
      }),
    );
    return out.Item;
  }

  private async conditional(u: {
    UpdateExpression: string;
    ConditionExpression: string;
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues: Record<string, unknown>;
    event: PaymentEvent;
  }): Promise<boolean> {
    const { event, ...update } = u;
    try {
      await this.db.send(
        new UpdateCommand({ TableName: this.table, Key: eventRecordKey(event, this.shards), ...update }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }
}

/** The whole intent: its state as stored on the event's record, its text and addressing made again from the event. */
export function intentOfRecord(
  event: PaymentEvent,
  channel: Channel,
  stored: StoredIntent,
): NotificationIntent {
  // An email intent needs the address it stored, even for an event that no longer carries one.
  const made = intentsOf({ ...event, ...(stored.to ? { email: stored.to } : {}) }, stored.created_at);
  const base = made.find((i) => i.channel === channel) ?? { ...(made[0] as NotificationIntent), channel };
  return { ...base, ...stored };
}
