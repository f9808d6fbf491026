import type { PaymentEvent } from "../outbox/payment-event";

/** The channels a payment is announced on. */
export type Channel = "push" | "email";
/** Every channel, in the order the notification step finishes them. */
export const CHANNELS: readonly Channel[] = ["push", "email"];

/**
 * PENDING until sent, or deliberately not sent (SUPPRESSED: a logical duplicate, a capped user, no device), or
 * refused for good by the provider (FAILED: a rejected address, a disabled endpoint, a paused account); then final.
 */
export type IntentState = "PENDING" | "SENT" | "SUPPRESSED" | "FAILED";

/** The states an intent ends in. */
export type FinalIntentState = Exclude<IntentState, "PENDING">;

/** The email send record: written with the SENT mark as soon as the provider accepted the email. */
export interface EmailSendRecord {
  event_id: string;
  message_id: string;
  to: string;
  sent_at: number;
}

/** A notification intent: written with the credit, so that "should I send?" has a durable answer (Part 7). */
export interface NotificationIntent {
  event_id: string;
  channel: Channel;
  state: IntentState;
  payment_id: string;
  caller: string;
  /** What a repeat replaces on the phone: the thing announced, the payment (contract: the push replace id). */
  replace_id: string;
  title: string;
  body: string;
  /** The buyer's address, for the email channel. */
  to?: string;
  /** The logical-dedup business key: the same buyer, merchant, amount and currency. */
  dedup_key: string;
  created_at: number;
  finished_at?: number;
  reason?: string;
}

/** The key of the intent for (event, channel): one intent per channel per event, never two. */
export const intentKey = (eventId: string, channel: Channel) => ({ pk: `INTENT#${eventId}`, sk: channel });

/**
 * The intents a payment event announces: a push always, an email when the buyer's token carried an address. A
 * refund's push has the same replace id as the payment's "paid" push, so it lands on top of it.
 */
export function intentsOf(event: PaymentEvent, now: number): NotificationIntent[] {
  const text = textOf(event);
  const base = {
    event_id: event.event_id,
    state: "PENDING" as const,
    payment_id: event.payment_id,
    caller: event.caller,
    replace_id: event.payment_id,
    dedup_key: `${event.merchant_id}:${event.amount}:${event.currency}`,
    created_at: now,
  };
  const push: NotificationIntent = { ...base, channel: "push", ...text.push };
  if (!event.email) return [push];
  return [push, { ...base, channel: "email", to: event.email, ...text.email }];
}

/** The template a push is deduplicated under: one per event type, so a refund is never a duplicate of its payment. */
export const pushTemplateOf = (event: Pick<PaymentEvent, "type">): string => `${event.type}/push`;

function textOf(event: PaymentEvent) {
  const money = formatMoney(event.amount, event.currency);
  const at = new Date(event.occurred_at).toISOString();
  if (event.type === "payment.refund_failed") {
    const text = `The refund of your payment of ${money} to ${event.merchant_id} did not go through; the money was not returned. Ask for the refund again.`;
    return {
      push: { title: "Refund failed", body: text },
      email: {
        title: `Your refund for payment ${event.payment_id} failed`,
        body: [text, "", `Payment id: ${event.payment_id}`, `Failed at: ${at}`].join("\n"),
      },
    };
  }
  if (event.type === "payment.refunded") {
    return {
      push: {
        title: "Payment refunded",
        body: `Your payment of ${money} to ${event.merchant_id} was refunded.`,
      },
      email: {
        title: `Your refund for payment ${event.payment_id}`,
        body: [
          `Your payment of ${money} to ${event.merchant_id} was refunded.`,
          "",
          `Payment id: ${event.payment_id}`,
          `Refunded at: ${at}`,
        ].join("\n"),
      },
    };
  }
  return {
    push: { title: "Payment successful", body: `You paid ${money} to ${event.merchant_id}.` },
    email: {
      title: `Your receipt for payment ${event.payment_id}`,
      body: [
        `You paid ${money} to ${event.merchant_id}.`,
        "",
        `Payment id: ${event.payment_id}`,
        `Paid at: ${at}`,
      ].join("\n"),
    },
  };
}

/** Minor units as the currency writes them (e.g. 3000 USD → "$30.00", 500 JPY → "¥500"). */
export function formatMoney(amount: number, currency: string): string {
  const f = new Intl.NumberFormat("en-US", { style: "currency", currency });
  const digits = f.resolvedOptions().maximumFractionDigits ?? 2;
  return f.format(amount / 10 ** digits);
}
