import { eventIdOf } from "../ids/derive-ids";
import {
  OUTBOX_INDEX_PK,
  type OutboxItem,
  outboxKey,
  type PaymentRow,
  padTime,
  paymentKey,
} from "./ledger-items";

/**
 * The balanced double entry for a captured charge (clearing debited, merchant payable credited) and
 * the outbox item, written in the same transaction as the move to SUCCEEDED. The event id is derived
 * so that a standby Region re-creates the same one (Part 9).
 */
export function journalAndOutbox(table: string, row: PaymentRow, now: number) {
  const { pk } = paymentKey(row.payment_id);
  const entry = (n: number, account: string, side: "debit" | "credit") => ({
    TableName: table,
    Item: { pk, sk: `JOURNAL#${n}`, account, side, amount: row.amount, currency: row.currency, at: now },
    ConditionExpression: "attribute_not_exists(pk)",
  });
  const eventId = eventIdOf(row.payment_id, "SUCCEEDED");
  const outbox: OutboxItem = {
    event_id: eventId,
    type: "payment.succeeded",
    payment_id: row.payment_id,
    merchant_id: row.merchant_id,
    caller: row.caller,
    email: row.email,
    amount: row.amount,
    currency: row.currency,
    created_at: now,
  };
  return [
    entry(1, "psp_clearing", "debit"),
    entry(2, `merchant_payable:${row.merchant_id}`, "credit"),
    {
      TableName: table,
      Item: { ...outboxKey(eventId), ...outbox, gsi1pk: OUTBOX_INDEX_PK, gsi1sk: padTime(now) },
      ConditionExpression: "attribute_not_exists(pk)",
    },
  ];
}

/**
 * The reversing double entry for a refund (merchant payable debited, clearing credited), written in the
 * same transaction as the move to REFUNDED, so that the ledger balances to zero for a refunded payment.
 */
export function refundJournal(table: string, row: PaymentRow, now: number) {
  const { pk } = paymentKey(row.payment_id);
  const entry = (n: number, account: string, side: "debit" | "credit") => ({
    TableName: table,
    Item: { pk, sk: `JOURNAL#${n}`, account, side, amount: row.amount, currency: row.currency, at: now },
    ConditionExpression: "attribute_not_exists(pk)",
  });
  return [entry(3, `merchant_payable:${row.merchant_id}`, "debit"), entry(4, "psp_clearing", "credit")];
}
