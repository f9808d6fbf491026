import { merchantShardPk, shardOf } from "../merchant/balance-shards";
import { intentKey, type NotificationIntent } from "../notification/intent";
import type { PaymentEvent } from "../outbox/payment-event";

/** The inbox item: its presence means the event's effect was applied (Part 6, the consumer's guard). */
export const inboxKey = (eventId: string) => ({ pk: `INBOX#${eventId}`, sk: "INBOX" });

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

const absent = "attribute_not_exists(pk)";

/** What an event does to the merchant's money: a succeeded payment credits it, a refunded one debits it. */
function moneyOf(event: PaymentEvent, shard: number) {
  return event.type === "payment.refunded"
    ? { key: debitKey(event.merchant_id, shard, event.event_id), kind: "debit" as const }
    : { key: creditKey(event.merchant_id, shard, event.event_id), kind: "credit" as const };
}

/** The money record an event writes: its credit (or a refund's debit), in the shard its event id picks. */
export function moneyRecordOf(event: PaymentEvent, shards: number) {
  return moneyOf(event, shardOf(event.event_id, shards));
}

/**
 * The worker's one transaction (Part 6): the inbox item (absent only the first time), the credit or debit
 * record and each intent as PENDING. Every item is keyed by the event id and written whole ("write the result,
 * not the change", Part 5): the balance is the sum of the records, never an increment, so an event applied in
 * both Regions during a failover converges to one record under last-writer-wins, and a transaction whose items
 * replicated apart cannot be applied twice. The inbox is item 0 and the money record item 1, so that a repeat
 * is recognised by the cancellation reasons.
 */
export function inboxTransaction(
  table: string,
  event: PaymentEvent,
  intents: NotificationIntent[],
  shards: number,
  now: number,
  parts: { money: boolean } = { money: true },
) {
  const money = moneyRecordOf(event, shards);
  const facts = { event_id: event.event_id, payment_id: event.payment_id, merchant_id: event.merchant_id };
  const record = {
    ...money.key,
    ...facts,
    amount: event.amount,
    currency: event.currency,
    occurred_at: event.occurred_at,
    applied_at: now,
  };
  return [
    {
      Put: {
        TableName: table,
        Item: { ...inboxKey(event.event_id), ...facts, applied_at: now },
        ConditionExpression: absent,
      },
    },
    ...(parts.money
      ? [
          {
            Put: {
              TableName: table,
              Item: record,
              ConditionExpression: absent,
              ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const,
            },
          },
        ]
      : []),
    ...intents.map((intent) => ({
      Put: {
        TableName: table,
        Item: { ...intentKey(intent.event_id, intent.channel), ...intent },
        ConditionExpression: absent,
      },
    })),
  ];
}
