import type { PaymentState } from "../payment/payment-state";
import { unsafeKeepIndexOnMove } from "../payment/payment-test-switches";
import type { LookupCursor } from "../psp/psp-port";
import { outboxIndexPk, sweepIndexPk } from "./index-shards";

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
  /**
   * The PSP's object of a charge it accepted but had not finished (Stripe: a PaymentIntent `processing`): the resolver
   * reads it by this id, since a replayed POST answers the body saved at creation.
   */
  psp_charge_open?: string;
  psp_refund?: string;
  decline_code?: string;
  /** The refund attempt in flight or last made: 1 for `{payment_id}:cancel:refund`, n for `…:refund:n`. */
  refund_attempt?: number;
  /** When the current refund attempt was recorded, to know when the PSP forgets its key. */
  refund_started_at?: number;
  /** The PSP's reason for the last refund attempt it definitely refused. */
  refund_refusal?: string;
  /** The PSP's reason for a refund it failed after accepting it (REFUND_FAILED; Stripe's `failure_reason`). */
  refund_failure_reason?: string;
  /** Lookups by our reference that found nothing yet (a lagging index is not a decline). */
  lookup_attempts?: number;
  /** When a lookup by our reference first found nothing; the settle period counts from it too. */
  first_not_found_at?: number;
  /**
   * When each send of the charge's key began (our clock, ms), recorded on the row before the send: the first one
   * (the durable guard's own write) and the latest few (PSP_SENDS_KEPT in psp-sends.ts). A lookup lists only around
   * them; with a send dropped between the first and the second kept, it lists that whole gap.
   */
  psp_sends?: number[];
  /** Where the last lookup of the charge stopped unfinished; the next one goes on from there. */
  lookup_cursor?: LookupCursor;
  /** Something the PSP said that contradicts a final state (a charge.succeeded for a FAILED payment). */
  anomaly?: PaymentAnomaly;
  /**
   * The Region control's epoch when the durable guard was written (absent: the first epoch, or no Region
   * control). A resolver under a later epoch only looks such a row's charge up (see settle-unknowns).
   */
  epoch?: number;
  /**
   * The version of the PSP request bodies this payment is sent with, stamped at the durable guard (absent: 1, the
   * rows from before versions): every replay of its keys sends that version's body (PSP_BODY_VERSION).
   */
  body_version?: number;
  /** How many resolver passes failed to settle this row with an error (not an unknown outcome: a throw). */
  resolver_failures?: number;
  /** The last such error, for the on-call engineer (docs/runbook.md, "A row the resolver cannot settle"). */
  resolver_error?: string;
  created_at: number;
  updated_at: number;
}

/** A serious contradiction between the PSP and the ledger, kept on the row for reconciliation and a person. */
export interface PaymentAnomaly {
  /** A charge.succeeded for a FAILED payment, or a refund the PSP failed after accepting it (RefundFailedLater). */
  kind: "charge-succeeded-for-failed" | "refund-failed-later";
  psp_charge: string;
  psp_event: string;
  at: number;
}

/** The row without its table keys and index fields, so that a move never carries an old index entry on. */
export function rowFields(item: PaymentRow): PaymentRow {
  if (unsafeKeepIndexOnMove()) return item;
  const { pk: _pk, sk: _sk, gsi1pk: _gp, gsi1sk: _gs, ...row } = item as PaymentRow & Record<string, unknown>;
  return row as PaymentRow;
}

/** The locator (caller, key) → payment_id: the durable guard. It never expires; VOID makes it a tombstone. */
export interface LocatorRow {
  caller: string;
  client_key: string;
  payment_id: string;
  fingerprint?: string;
  state: "ACTIVE" | "VOID";
  /**
   * On a VOID tombstone, the Region control's epoch it was written under (absent: the first epoch, or no Region
   * control). A resolve under a later epoch asks the PSP before it answers VOID (see resolve-key).
   */
  epoch?: number;
  created_at: number;
}

/** The outbox item written with the move to SUCCEEDED; its event id is stored, never made up at send time. */
export interface OutboxItem {
  event_id: string;
  /** A succeeded payment credits the merchant, a refund debits it, a refund failed later credits the debit back. */
  type: "payment.succeeded" | "payment.refunded" | "payment.refund_failed";
  payment_id: string;
  merchant_id: string;
  caller: string;
  email?: string;
  amount: number;
  currency: string;
  created_at: number;
  /**
   * The Region whose write made the item. Each Region's relay maps only its own (a replica's stream carries the
   * other Region's writes too); the other's leftovers reach the queue through the promoted Region's sweep.
   */
  origin_region?: "primary" | "standby";
  /**
   * The event tells the buyer and moves no money: a refund the PSP failed before the ledger heard it succeed debited
   * nobody, so there is no debit to credit back, but the contract still owes the buyer one notification.
   */
  notice_only?: true;
  /**
   * The journal entry that carries the event (`PAY#…`, `JOURNAL#…`), read from the item's keys and never stored:
   * the relay takes the event off the entry instead of deleting an outbox item of its own.
   */
  entry?: { pk: string; sk: string };
}

export const paymentKey = (paymentId: string) => ({ pk: `PAY#${paymentId}`, sk: "PAYMENT" });
export const locatorKey = (caller: string, key: string) => ({
  pk: `LOC#${encodeURIComponent(caller)}#${key}`,
  sk: "LOCATOR",
});
export const outboxKey = (eventId: string) => ({ pk: `OUTBOX#${eventId}`, sk: "OUTBOX" });
export const webhookInboxKey = (eventId: string) => ({ pk: `WHIN#${eventId}`, sk: "WEBHOOK" });

/**
 * The sparse state index: only rows whose outcome is still open, and outbox items, carry gsi1pk; an open row is
 * listed under its state's shard for its payment (`index-shards.ts`).
 */
export const sweepIndexKey = (state: PaymentState, paymentId: string, atMs: number) => ({
  gsi1pk: sweepIndexPk(state, paymentId),
  gsi1sk: padTime(atMs),
});
/** An event's entry in the outbox list of the sparse index, under its payment's shard. */
export const outboxIndexKey = (paymentId: string, atMs: number) => ({
  gsi1pk: outboxIndexPk(paymentId),
  gsi1sk: padTime(atMs),
});
/** Rows with an anomaly, for the resolver's report; they stay listed until a person clears them. */
export const ANOMALY_INDEX_PK = "ANOMALY";

/** A fixed-width time so that the index sorts by time as text. */
export const padTime = (ms: number): string => String(Math.floor(ms)).padStart(15, "0");
