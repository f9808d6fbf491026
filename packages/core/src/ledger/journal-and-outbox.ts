import { outboxEventIdOf } from "../ids/derive-ids";
import { type OutboxItem, outboxIndexKey, outboxKey, type PaymentRow, paymentKey } from "./ledger-items";

/** The sort key of a charge's journal entry. */
export const CHARGE_JOURNAL_SK = "JOURNAL#1";
/**
 * The sort key of a refund's journal entry. The entries keep the sort keys their first legs had when each leg was
 * an item of its own, so that the relay's stream filter on a refund's entry (stacks/handlers.ts) did not change.
 */
export const REFUND_JOURNAL_SK = "JOURNAL#3";
/** The sort key of the entry that takes a refund's debit back when the PSP failed the refund later (attempt 1). */
export const REFUND_FAILED_SK = "JOURNAL#4";

/**
 * The sort key of a refund attempt's entry (REFUNDED) or of its failure (REFUND_FAILED): attempt 1 keeps the bare key,
 * attempt n ≥ 2 suffixes `#n`, so that every attempt's facts are items of their own, each written once. The relay's
 * stream filter (stacks/handlers.ts) takes the refund entries by the prefix `JOURNAL#3`.
 */
export function refundFactSk(state: "REFUNDED" | "REFUND_FAILED", attempt = 1): string {
  const base = state === "REFUNDED" ? REFUND_JOURNAL_SK : REFUND_FAILED_SK;
  return attempt <= 1 ? base : `${base}#${attempt}`;
}

/** The refund attempt and outcome a sort key names, when it is a refund's fact. */
export function refundFactOf(
  sk: unknown,
): { state: "REFUNDED" | "REFUND_FAILED"; attempt: number } | undefined {
  const m = typeof sk === "string" ? /^JOURNAL#([34])(?:#([1-9][0-9]*))?$/.exec(sk) : null;
  if (!m) return undefined;
  return { state: m[1] === "3" ? "REFUNDED" : "REFUND_FAILED", attempt: m[2] ? Number(m[2]) : 1 };
}

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
  const sk = refundFactSk("REFUNDED", row.refund_attempt);
  return [journalEntry(table, row, now, sk, legs, { ...outbox, ...fact })];
}

/**
 * What the failure of a refund announces: `reverses`, the merchant was debited (the refund had been answered done);
 * `notice`, it was not, and the buyer is only told; `none`, the fact alone (a test switch's, never in AWS).
 */
export type RefundFailedEvent = "reverses" | "notice" | "none";

/**
 * The fact of a refund the PSP failed after accepting it, written once in the move to REFUND_FAILED, carrying the
 * outbox event `{payment_id}:REFUND_FAILED` (`:{n}` for attempt n ≥ 2). When it `reverses`, it is the entry reversing
 * the refund's (clearing debited, merchant payable credited): the worker credits the merchant back once and tells the
 * buyer. Otherwise no money moved: the fact has no legs and its event is a notice only, so the worker tells the buyer
 * and credits nothing.
 */
export function refundFailedFact(
  table: string,
  row: PaymentRow,
  now: number,
  event: RefundFailedEvent,
  origin?: OutboxItem["origin_region"],
) {
  const sk = refundFactSk("REFUND_FAILED", row.refund_attempt);
  const fact = {
    ...(row.psp_refund ? { psp_refund: row.psp_refund } : {}),
    ...(row.refund_failure_reason ? { refund_failure_reason: row.refund_failure_reason } : {}),
  };
  const outbox = event === "none" ? {} : outboxFields(row, now, "REFUND_FAILED", origin, event === "notice");
  const legs = event === "reverses" ? REFUND_FAILED_LEGS(row.merchant_id) : [];
  return journalEntry(table, row, now, sk, legs, { ...outbox, ...fact });
}

const REFUND_FAILED_LEGS = (merchantId: string) =>
  [
    ["psp_clearing", "debit"],
    [`merchant_payable:${merchantId}`, "credit"],
  ] as const;

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

/** A state whose move carries an outbox event. */
export type EventState = "SUCCEEDED" | "REFUNDED" | "REFUND_FAILED";

const EVENT_TYPES: Record<EventState, OutboxItem["type"]> = {
  SUCCEEDED: "payment.succeeded",
  REFUNDED: "payment.refunded",
  REFUND_FAILED: "payment.refund_failed",
};

// Whichever path moved the payment (owner, webhook, resolver), the event id is the state's, so it is one event; a
// refund's is its attempt's (`:{n}` for attempt n ≥ 2), so that a later attempt is an event of its own.
function outboxFields(
  row: PaymentRow,
  now: number,
  state: EventState,
  origin: OutboxItem["origin_region"],
  noticeOnly = false,
) {
  const attempt = row.refund_attempt ?? 1;
  const named = state !== "SUCCEEDED" && attempt > 1 ? `${state}:${attempt}` : state;
  const outbox: OutboxItem = {
    event_id: outboxEventIdOf(row.payment_id, named),
    type: EVENT_TYPES[state],
    payment_id: row.payment_id,
    merchant_id: row.merchant_id,
    caller: row.caller,
    email: row.email,
    amount: row.amount,
    currency: row.currency,
    created_at: now,
    ...(origin ? { origin_region: origin } : {}),
    ...(noticeOnly ? { notice_only: true as const } : {}),
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
  state: EventState,
  origin?: OutboxItem["origin_region"],
  noticeOnly = false,
) {
  const outbox = outboxFields(row, now, state, origin, noticeOnly);
  return { TableName: table, Item: { ...outboxKey(outbox.event_id), ...outbox } };
}
