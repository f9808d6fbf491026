import { balanceAttribute, merchantShardPk, shardOf } from "../merchant/balance-shards";
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

/** One balance shard of a merchant. */
export const balanceKey = (merchantId: string, shard: number) => ({
  pk: merchantShardPk(merchantId, shard),
  sk: "BALANCE",
});

const absent = "attribute_not_exists(pk)";

/** What an event does to the merchant's money: a succeeded payment credits it, a refunded one debits it. */
function moneyOf(event: PaymentEvent, shard: number) {
  return event.type === "payment.refunded"
    ? { key: debitKey(event.merchant_id, shard, event.event_id), delta: -event.amount, counter: "debits" }
    : { key: creditKey(event.merchant_id, shard, event.event_id), delta: event.amount, counter: "credits" };
}

/**
 * The worker's one transaction (Part 6): the inbox item (absent only the first time), the credit or debit
 * record, the balance shard's increment or decrement (safe because the inbox guards it in the same
 * transaction) and each intent as PENDING. The inbox is item 0 so that a repeat is recognised by the first
 * cancellation reason.
 */
export function inboxTransaction(
  table: string,
  event: PaymentEvent,
  intents: NotificationIntent[],
  shards: number,
  now: number,
) {
  const shard = shardOf(event.event_id, shards);
  const money = moneyOf(event, shard);
  const facts = { event_id: event.event_id, payment_id: event.payment_id, merchant_id: event.merchant_id };
  return [
    {
      Put: {
        TableName: table,
        Item: { ...inboxKey(event.event_id), ...facts, applied_at: now },
        ConditionExpression: absent,
      },
    },
    {
      Put: {
        TableName: table,
        Item: {
          ...money.key,
          ...facts,
          amount: event.amount,
          currency: event.currency,
          occurred_at: event.occurred_at,
          applied_at: now,
        },
        ConditionExpression: absent,
      },
    },
    {
      Update: {
        TableName: table,
        Key: balanceKey(event.merchant_id, shard),
        UpdateExpression: "ADD #balance :delta, #counter :one SET merchant_id = :merchant, updated_at = :now",
        ExpressionAttributeNames: { "#balance": balanceAttribute(event.currency), "#counter": money.counter },
        ExpressionAttributeValues: {
          ":delta": money.delta,
          ":one": 1,
          ":merchant": event.merchant_id,
          ":now": now,
        },
      },
    },
    ...intents.map((intent) => ({
      Put: {
        TableName: table,
        Item: { ...intentKey(intent.event_id, intent.channel), ...intent },
        ConditionExpression: absent,
      },
    })),
  ];
}

/** Where the intents start in the transaction, for reading cancellation reasons. */
export const FIRST_INTENT_INDEX = 3;
