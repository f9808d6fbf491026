import { outboxEventIdOf } from "../ids/derive-ids";
import {
  OUTBOX_INDEX_PK,
  type OutboxItem,
  outboxKey,
  type PaymentRow,
  padTime,
  paymentKey,
} from "./ledger-items";

/** The sort key of a charge's journal entry. */
export const CHARGE_JOURNAL_SK = "JOURNAL#1";
/**
 * The sort key of a refund's journal entry. The entries keep the sort keys their first legs had when each leg was
 * an item of its own, so that the relay's stream filter on a refund's entry (stacks/handlers.ts) did not change.
 */
export const REFUND_JOURNAL_SK = "JOURNAL#3";

/** One leg of a balanced journal entry. */
export interface JournalLeg {
  account: string;
  side: "debit" | "credit";
  amount: number;
}

/**
 * The balanced double entry for a captured charge (clearing debited, merchant payable credited) and
 * the outbox item, written in the same transaction as the move to SUCCEEDED. The event id is derived
 * so that a standby Region re-creates the same one (Part 9).
 */
export function journalAndOutbox(
  table: string,
  row: PaymentRow,
  now: number,
  origin?: OutboxItem["origin_region"],
) {
  return [
    journalEntry(table, row, now, CHARGE_JOURNAL_SK, [
      ["psp_clearing", "debit"],
      [`merchant_payable:${row.merchant_id}`, "credit"],
    ]),
    outboxPut(table, row, now, "SUCCEEDED", "payment.succeeded", origin),
  ];
}

/**
 * The reversing double entry for a refund (merchant payable debited, clearing credited) and the outbox item
 * `{payment_id}:REFUNDED`, written in the same transaction as the move to REFUNDED: the ledger balances to
 * zero for a refunded payment, and the worker debits the merchant once and tells the buyer.
 */
export function refundJournalAndOutbox(
  table: string,
  row: PaymentRow,
  now: number,
  origin?: OutboxItem["origin_region"],
) {
  return [
    journalEntry(table, row, now, REFUND_JOURNAL_SK, [
      [`merchant_payable:${row.merchant_id}`, "debit"],
      ["psp_clearing", "credit"],
    ]),
    outboxPut(table, row, now, "REFUNDED", "payment.refunded", origin),
  ];
}

// One item per balanced entry, its legs inside it: a transaction bills each item twice, and an entry's legs are
// only ever written, read and checked together (bench:cost: two write units fewer per settle, four with a replica).
function journalEntry(
  table: string,
  row: PaymentRow,
  now: number,
  sk: string,
  legs: ReadonlyArray<readonly [string, JournalLeg["side"]]>,
) {
  const { pk } = paymentKey(row.payment_id);
  const entry: JournalLeg[] = legs.map(([account, side]) => ({ account, side, amount: row.amount }));
  return {
    TableName: table,
    Item: { pk, sk, legs: entry, currency: row.currency, at: now },
    ConditionExpression: "attribute_not_exists(pk)",
  };
}

// Whichever path moved the payment (owner, webhook, resolver), the event id is the state's, so it is one event.
function outboxPut(
  table: string,
  row: PaymentRow,
  now: number,
  state: "SUCCEEDED" | "REFUNDED",
  type: OutboxItem["type"],
  origin: OutboxItem["origin_region"],
) {
  const eventId = outboxEventIdOf(row.payment_id, state);
  const outbox: OutboxItem = {
    event_id: eventId,
    type,
    payment_id: row.payment_id,
    merchant_id: row.merchant_id,
    caller: row.caller,
    email: row.email,
    amount: row.amount,
    currency: row.currency,
    created_at: now,
    ...(origin ? { origin_region: origin } : {}),
  };
  return {
    TableName: table,
    Item: { ...outboxKey(eventId), ...outbox, gsi1pk: OUTBOX_INDEX_PK, gsi1sk: padTime(now) },
    ConditionExpression: "attribute_not_exists(pk)",
  };
}

/**
 * The event of a move whose journal entries are there already (the same move ran in the other Region and its row
 * write lost to a later one): put again without a condition, since its derived id makes a second copy harmless and
 * the first may have gone with the failed Region.
 */
export function outboxAgain(
  table: string,
  row: PaymentRow,
  now: number,
  state: "SUCCEEDED" | "REFUNDED",
  origin?: OutboxItem["origin_region"],
) {
  const type = state === "SUCCEEDED" ? "payment.succeeded" : "payment.refunded";
  const put = outboxPut(table, row, now, state, type, origin);
  return { TableName: put.TableName, Item: put.Item };
}
