import { BatchGetCommand, type DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { isConditionFailure } from "../aws/document-client";
import {
  EVENT_RECORD_PREFIXES,
  eventRecordKey,
  type IntentMark,
  intentMarkKey,
  type StoredIntent,
} from "../inbox/event-record";
import type { PaymentEvent } from "../outbox/payment-event";
import {
  CHANNELS,
  type Channel,
  type EmailSendRecord,
  type FinalIntentState,
  intentsOf,
  type NotificationIntent,
} from "./intent";

export type { EmailSendRecord, FinalIntentState } from "./intent";

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
 * Intents on the event's record (`intents.{channel}`, written PENDING with the record), and each intent's end as a
 * mark item of its own beside it (`MARK#{event_id}#{channel}`: SENT, SUPPRESSED or FAILED, with the email's send
 * record). A mark on the record itself could be undone: global tables replicate whole items, last writer wins, so
 * the other Region's later write of the same record during a failover (its own put, with its intents PENDING)
 * replaced a SENT mark here, and this Region's next redelivery sent again (found by the fault checker). A mark
 * item is only ever written final, by either Region, so no replicated write can make it PENDING again.
 */
export class DynamoIntentStore implements IntentStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly shards: number,
  ) {}

  async read(event: PaymentEvent): Promise<Partial<Record<Channel, NotificationIntent>>> {
    const { record, marks } = await this.recordAndMarks(event);
    const stored = (record?.intents ?? {}) as Partial<Record<Channel, StoredIntent>>;
    const out: Partial<Record<Channel, NotificationIntent>> = {};
    for (const [channel, one] of Object.entries(stored) as Array<[Channel, StoredIntent]>)
      out[channel] = intentOfRecord(event, channel, one, marks[channel]);
    return out;
  }

  async finish(
    event: PaymentEvent,
    channel: Channel,
    state: FinalIntentState,
    now: number,
    reason?: string,
  ): Promise<boolean> {
    return this.putMark(event, channel, { state, finished_at: now, ...(reason ? { reason } : {}) });
  }

  // The send record and the mark are one item, written as soon as the provider accepted, so the window in which
  // a crash repeats an email is no wider than one write.
  async markEmailSent(event: PaymentEvent, record: EmailSendRecord, now: number): Promise<boolean> {
    return this.putMark(event, "email", { state: "SENT", finished_at: now, email_send: record });
  }

  /** The mark, put only if absent: the compare-and-set that lets one run of this Region finish the intent. */
  private async putMark(
    event: PaymentEvent,
    channel: Channel,
    end: Omit<IntentMark, "event_id" | "channel">,
  ) {
    try {
      const item = {
        ...intentMarkKey(event, channel, this.shards),
        event_id: event.event_id,
        channel,
        ...end,
      };
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: item,
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  /** The record and both channels' marks in one round trip (the marks share the record's partition). */
  private async recordAndMarks(event: PaymentEvent) {
    const keys = [
      eventRecordKey(event, this.shards),
      ...CHANNELS.map((c) => intentMarkKey(event, c, this.shards)),
    ];
    const items = await batchGetConsistent(this.db, this.table, keys);
    const record = items.find((i) => EVENT_RECORD_PREFIXES.some((p) => String(i.sk).startsWith(p)));
    const marks: Partial<Record<Channel, IntentMark>> = {};
    for (const i of items)
      if (String(i.sk).startsWith("MARK#")) marks[i.channel as Channel] = i as unknown as IntentMark;
    return { record, marks };
  }
}

/** Reads every key (unprocessed keys again, as BatchGetItem may leave some under load), strongly consistent. */
async function batchGetConsistent(
  db: DynamoDBDocumentClient,
  table: string,
  keys: Array<Record<string, string>>,
): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let pending: Array<Record<string, unknown>> = keys;
  for (let attempt = 0; pending.length > 0; attempt += 1) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1_000, 20 * 2 ** attempt)));
    const out = await db.send(
      new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }),
    );
    found.push(...(out.Responses?.[table] ?? []));
    pending = out.UnprocessedKeys?.[table]?.Keys ?? [];
  }
  return found;
}

/** The whole intent: its state as stored on the event's record, its text and addressing made again from the event. */
export function intentOfRecord(
  event: PaymentEvent,
  channel: Channel,
  stored: StoredIntent,
  mark?: Pick<IntentMark, "state" | "finished_at" | "reason">,
): NotificationIntent {
  // An email intent needs the address it stored, even for an event that no longer carries one.
  const made = intentsOf({ ...event, ...(stored.to ? { email: stored.to } : {}) }, stored.created_at);
  const base = made.find((i) => i.channel === channel) ?? { ...(made[0] as NotificationIntent), channel };
  // The mark, once there, is the intent's end whatever the record says (a replicated write may say PENDING).
  const end = mark
    ? { state: mark.state, finished_at: mark.finished_at, ...(mark.reason ? { reason: mark.reason } : {}) }
    : {};
  return { ...base, ...stored, ...end };
}
