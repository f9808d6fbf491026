import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { isConditionFailure } from "../aws/document-client";
import { type Channel, type IntentState, intentKey, type NotificationIntent } from "./intent";

/** The states an intent ends in. */
export type FinalIntentState = Exclude<IntentState, "PENDING">;

/** The email send record: written as soon as the provider accepted the email, keyed by the intent. */
export interface EmailSendRecord {
  event_id: string;
  message_id: string;
  to: string;
  sent_at: number;
}

/** Reads intents and finishes them by compare-and-set; keeps the email send records beside them. */
export interface IntentStore {
  get(eventId: string, channel: Channel): Promise<NotificationIntent | undefined>;
  /** Moves PENDING to a final state; false when it was no longer PENDING (someone else finished it). */
  finish(
    eventId: string,
    channel: Channel,
    state: FinalIntentState,
    now: number,
    reason?: string,
  ): Promise<boolean>;
  getEmailSend(eventId: string): Promise<EmailSendRecord | undefined>;
  /** Records a send; false when a record was already there (a concurrent sender got there first). */
  putEmailSend(record: EmailSendRecord): Promise<boolean>;
}

const sendKey = (eventId: string) => ({ pk: `INTENT#${eventId}`, sk: "email#SEND" });

/** Intents and send records on the consumer table (pk `INTENT#{event_id}`, sk the channel). */
export class DynamoIntentStore implements IntentStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(eventId: string, channel: Channel): Promise<NotificationIntent | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.table, Key: intentKey(eventId, channel), ConsistentRead: true }),
    );
    return out.Item as NotificationIntent | undefined;
  }

  async finish(
    eventId: string,
    channel: Channel,
    state: FinalIntentState,
    now: number,
    reason?: string,
  ): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: intentKey(eventId, channel),
          UpdateExpression: reason
            ? "SET #state = :to, finished_at = :now, reason = :reason"
            : "SET #state = :to, finished_at = :now",
          ConditionExpression: "#state = :pending",
          ExpressionAttributeNames: { "#state": "state" },
          ExpressionAttributeValues: {
            ":to": state,
            ":pending": "PENDING",
            ":now": now,
            ...(reason ? { ":reason": reason } : {}),
          },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async getEmailSend(eventId: string): Promise<EmailSendRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.table, Key: sendKey(eventId), ConsistentRead: true }),
    );
    return out.Item as EmailSendRecord | undefined;
  }

  async putEmailSend(record: EmailSendRecord): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...sendKey(record.event_id), ...record },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }
}
