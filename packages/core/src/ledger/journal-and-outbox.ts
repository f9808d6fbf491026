import { outboxEventIdOf } from "../ids/derive-ids";
import { type OutboxItem, outboxIndexKey, outboxKey, type PaymentRow, paymentKey } from "./ledger-items";

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
 * The balanced double entry for a captured charge (clearing debited, merchant payable credited), carrying the
 * outbox event, written in the same transaction as the move to SUCCEEDED. The event id is derived so that a
 * standby Region re-creates the same one (Part 9).
 */
export function journalAndOutbox(
  table: string,
  row: PaymentRow,
  now: number,
  origin?: OutboxItem["origin_region"],
) {
  const legs = [
    ["psp_clearing", "debit"],
    [`merchant_payable:${row.merchant_id}`, "credit"],
  ] as const;
  const outbox = outboxFields(row, now, "SUCCEEDED", origin);
  return [journalEntry(table, row, now, CHARGE_JOURNAL_SK, legs, { ...outbox, psp_charge: row.psp_charge })];
}

/**
 * The reversing double entry for a refund (merchant payable debited, clearing credited), carrying the outbox event
 * `{payment_id}:REFUNDED`, written in the same transaction as the move to REFUNDED: the ledger balances to zero for
 * a refunded payment, and the worker debits the merchant once and tells the buyer.
 */
export function refundJournalAndOutbox(
  table: string,
  row: PaymentRow,
  now: number,
  origin?: OutboxItem["origin_region"],
) {
  const legs = [
    [`merchant_payable:${row.merchant_id}`, "debit"],
    ["psp_clearing", "credit"],
  ] as const;
  const outbox = outboxFields(row, now, "REFUNDED", origin);
  const fact = row.psp_refund ? { psp_refund: row.psp_refund } : {};
  return [journalEntry(table, row, now, REFUND_JOURNAL_SK, legs, { ...outbox, ...fact })];
}

// One item per balanced entry, its legs inside it, and the entry is the outbox item too: a transaction bills each
// item twice, and the entry and its event are written once, together, in the same move (bench:cost: four write
// units fewer per settle than an item per leg and an outbox item beside them, eight with a replica). The entry is
// written once and never changed, so its event cannot be lost to a later write of the row under last-writer-wins;
// the relay takes the event off it by removing its outbox index entry (`outbox-store.ts`), never the entry itself.
// Being written once and final, the entry is also the state fact a read of the row folds in (`state-facts.ts`), so it
// carries what the state needs: the charge's id, and the refund's when known.
function journalEntry(
  table: string,
  row: PaymentRow,
  now: number,
  sk: string,
  legs: ReadonlyArray<readonly [string, JournalLeg["side"]]>,
  fields: Record<string, unknown>,
) {
  const { pk } = paymentKey(row.payment_id);
  const entry: JournalLeg[] = legs.map(([account, side]) => ({ account, side, amount: row.amount }));
  return {
    TableName: table,
    Item: { ...fields, pk, sk, legs: entry, currency: row.currency, at: now },
    ConditionExpression: "attribute_not_exists(pk)",
  };
}

// Whichever path moved the payment (owner, webhook, resolver), the event id is the state's, so it is one event.
function outboxFields(
  row: PaymentRow,
  now: number,
  state: "SUCCEEDED" | "REFUNDED",
  origin: OutboxItem["origin_region"],
) {
  const outbox: OutboxItem = {
    event_id: outboxEventIdOf(row.payment_id, state),
    type: state === "SUCCEEDED" ? "payment.succeeded" : "payment.refunded",
    payment_id: row.payment_id,
    merchant_id: row.merchant_id,
    caller: row.caller,
    email: row.email,
    amount: row.amount,
    currency: row.currency,
    created_at: now,
    ...(origin ? { origin_region: origin } : {}),
  };
  return { ...outbox, ...outboxIndexKey(row.payment_id, now) };
}

/**
 * The event of a move whose journal entries are there already (the same move ran in the other Region and its row
 * write lost to a later one): put as an outbox item of its own, without a condition, since its derived id makes a
 * second copy harmless and the entry's may have been relayed, or gone with the failed Region.
 */
export function outboxAgain(
  table: string,
  row: PaymentRow,
  now: number,
  state: "SUCCEEDED" | "REFUNDED",
  origin?: OutboxItem["origin_region"],
) {
  const outbox = outboxFields(row, now, state, origin);
  return { TableName: table, Item: { ...outboxKey(outbox.event_id), ...outbox } };
}
