import type { PaymentState } from "../payment/payment-state";

/** The payment row: the durable record of the intent, written before any PSP call. */
export interface PaymentRow {
  payment_id: string;
  caller: string;
  client_key: string;
  fingerprint: string;
  order_id: string;
  amount: number;
  currency: string;
  payment_method: string;
  merchant_id: string;
  email?: string;
  state: PaymentState;
  psp_charge?: string;
  psp_refund?: string;
  decline_code?: string;
  created_at: number;
  updated_at: number;
}

/** The locator (caller, key) → payment_id: the durable guard. It never expires; VOID makes it a tombstone. */
export interface LocatorRow {
  caller: string;
  client_key: string;
  payment_id: string;
  fingerprint?: string;
  state: "ACTIVE" | "VOID";
  created_at: number;
}

/** The outbox item written with the move to SUCCEEDED; its event id is stored, never made up at send time. */
export interface OutboxItem {
  event_id: string;
  type: "payment.succeeded";
  payment_id: string;
  merchant_id: string;
  caller: string;
  email?: string;
  amount: number;
  currency: string;
  created_at: number;
}

export const paymentKey = (paymentId: string) => ({ pk: `PAY#${paymentId}`, sk: "PAYMENT" });
export const locatorKey = (caller: string, key: string) => ({
  pk: `LOC#${encodeURIComponent(caller)}#${key}`,
  sk: "LOCATOR",
});
export const outboxKey = (eventId: string) => ({ pk: `OUTBOX#${eventId}`, sk: "OUTBOX" });
export const webhookInboxKey = (eventId: string) => ({ pk: `WHIN#${eventId}`, sk: "WEBHOOK" });

/** The sparse state index: only rows whose outcome is still open, and outbox items, carry gsi1pk. */
export const sweepIndexKey = (state: PaymentState, atMs: number) => ({
  gsi1pk: `SWEEP#${state}`,
  gsi1sk: padTime(atMs),
});
export const OUTBOX_INDEX_PK = "OUTBOX";

/** A fixed-width time so that the index sorts by time as text. */
export const padTime = (ms: number): string => String(Math.floor(ms)).padStart(15, "0");
