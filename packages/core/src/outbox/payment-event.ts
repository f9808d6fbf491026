import type { OutboxItem } from "../ledger/ledger-items";

/**
 * The queue message the relay sends for an outbox item. It carries the item's facts and nothing of the send
 * itself (no attempt count, no send time), so that every re-send is the same message (Part 6).
 */
export type PaymentEvent = Omit<OutboxItem, "created_at"> & {
  /** When the payment moved to the announced state: the outbox item's created_at, the same on every re-send. */
  occurred_at: number;
};

/**
 * The event types the worker applies: a succeeded payment credits the merchant, a refunded one debits it, and a refund
 * the PSP failed later credits the debit back (or, a notice only, tells the buyer of a refund that debited nobody).
 */
export const PAYMENT_EVENT_TYPES: readonly PaymentEvent["type"][] = [
  "payment.succeeded",
  "payment.refunded",
  "payment.refund_failed",
];

/** A message the worker cannot read; it fails on every delivery and ends in the DLQ. */
export class UnreadableEvent extends Error {
  constructor(detail: string) {
    super(`unreadable event: ${detail}`);
    this.name = "UnreadableEvent";
  }
}

/** The event for an outbox item, built only from what the item stores. */
export function eventOfOutbox(item: OutboxItem): PaymentEvent {
  return {
    event_id: item.event_id,
    type: item.type,
    payment_id: item.payment_id,
    merchant_id: item.merchant_id,
    caller: item.caller,
    ...(item.email ? { email: item.email } : {}),
    amount: item.amount,
    currency: item.currency,
    occurred_at: item.created_at,
    ...(item.notice_only ? { notice_only: true as const } : {}),
  };
}

/** Parses and checks a message body; anything else is unreadable. */
export function parsePaymentEvent(body: string): PaymentEvent {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(body) as Record<string, unknown>;
  } catch {
    throw new UnreadableEvent("the body is not JSON");
  }
  if (typeof o !== "object" || o === null) throw new UnreadableEvent("the body is not a JSON object");
  if (!PAYMENT_EVENT_TYPES.includes(o.type as PaymentEvent["type"]))
    throw new UnreadableEvent(`unknown type ${String(o.type)}`);
  for (const field of ["event_id", "payment_id", "merchant_id", "caller", "currency"]) {
    if (typeof o[field] !== "string" || o[field] === "") throw new UnreadableEvent(`${field} is missing`);
  }
  if (!Number.isInteger(o.amount) || (o.amount as number) <= 0)
    throw new UnreadableEvent("amount is not a positive integer");
  if (typeof o.occurred_at !== "number") throw new UnreadableEvent("occurred_at is missing");
  if (o.email !== undefined && typeof o.email !== "string")
    throw new UnreadableEvent("email is not a string");
  if (o.notice_only !== undefined && (o.notice_only !== true || o.type !== "payment.refund_failed"))
    throw new UnreadableEvent("notice_only is only true, and only on payment.refund_failed");
  return o as unknown as PaymentEvent;
}
