import { merchantShardPk, shardOf } from "../merchant/balance-shards";
import type { Channel, EmailSendRecord, FinalIntentState, NotificationIntent } from "../notification/intent";
import type { PaymentEvent } from "../outbox/payment-event";

/** The credit record, in the item collection of the balance shard it was added to. */
export const creditKey = (merchantId: string, shard: number, eventId: string) => ({
  pk: merchantShardPk(merchantId, shard),
  sk: `CREDIT#${eventId}`,
});

/** The debit record of a refund, beside the credit records, so that credits still count credits only. */
export const debitKey = (merchantId: string, shard: number, eventId: string) => ({
  pk: merchantShardPk(merchantId, shard),
  sk: `DEBIT#${eventId}`,
});

/**
 * The record of an event that moves no money (`notice_only`), beside the credit and debit records but read by no
 * balance: it is still the event's inbox entry and holds its intents.
 */
export const noticeKey = (merchantId: string, shard: number, eventId: string) => ({
  pk: merchantShardPk(merchantId, shard),
  sk: `NOTICE#${eventId}`,
});

/** The sort-key prefixes of an event's record, whichever kind it is. */
export const EVENT_RECORD_PREFIXES = ["CREDIT#", "DEBIT#", "NOTICE#"] as const;

/** An intent as the event record keeps it: its state only; its text is the event's, made again when sent. */
export interface StoredIntent {
  state: NotificationIntent["state"];
  created_at: number;
  finished_at?: number;
  reason?: string;
  to?: string;
}

/** An intent's end: a mark item beside the event's record, written once, final (see DynamoIntentStore). */
export interface IntentMark {
  event_id: string;
  channel: Channel;
  state: FinalIntentState;
  finished_at: number;
  reason?: string;
  /** The email's send record, written with its SENT mark. */
  email_send?: EmailSendRecord;
}

/** The key of an intent's mark: in the event record's partition, so one BatchGetItem reads the record and both. */
export function intentMarkKey(
  event: Pick<PaymentEvent, "type" | "merchant_id" | "event_id">,
  channel: Channel,
  shards: number,
) {
  return { pk: eventRecordKey(event, shards).pk, sk: `MARK#${event.event_id}#${channel}` };
}

/**
 * The key of an event's record: its credit (or a refund's debit; a refund failed later credits the debit back, a
 * credit record of its own), in the shard its event id picks. It is also
 * the event's inbox entry and holds its intents, so every retry of one event finds the one item.
 */
export function eventRecordKey(
  event: Pick<PaymentEvent, "type" | "merchant_id" | "event_id" | "notice_only">,
  shards: number,
) {
  const shard = shardOf(event.event_id, shards);
  if (event.notice_only) return noticeKey(event.merchant_id, shard, event.event_id);
  return event.type === "payment.refunded"
    ? debitKey(event.merchant_id, shard, event.event_id)
    : creditKey(event.merchant_id, shard, event.event_id);
}

/**
 * The worker's one write (Part 6): the inbox entry, the credit or debit and each intent as PENDING, as one item
 * keyed by the event id and put only if absent. The seed's worker writes three rows in one SQL transaction;
 * DynamoDB makes a single item atomic on its own, so one conditional put (1 write unit under 1 KB) does what a
 * four-item TransactWriteItems did for 8. The record is written whole ("write the result, not the change",
 * Part 5): the balance is the sum of the records, never an increment, so an event applied in both Regions during
 * a failover converges to one record under last-writer-wins. The intents keep no text (it is the event's), so
 * the record stays under 1 KB and each later mark on it costs one write unit.
 */
export function eventRecordItem(
  event: PaymentEvent,
  intents: NotificationIntent[],
  shards: number,
  now: number,
) {
  const stored: Partial<Record<Channel, StoredIntent>> = {};
  for (const i of intents)
    stored[i.channel] = { state: i.state, created_at: i.created_at, ...(i.to ? { to: i.to } : {}) };
  return {
    ...eventRecordKey(event, shards),
    event_id: event.event_id,
    payment_id: event.payment_id,
    merchant_id: event.merchant_id,
    caller: event.caller,
    amount: event.amount,
    currency: event.currency,
    occurred_at: event.occurred_at,
    applied_at: now,
    intents: stored,
  };
}
