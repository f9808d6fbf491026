import { paymentIdFromPspKey, refundKeyOf } from "../ids/derive-ids";
import type { PaymentRow } from "../ledger/ledger-items";
import type { PaymentDeps } from "./payment-deps";
import { Refusal } from "./payment-errors";
import { CHARGE_OPEN_STATES, REFUND_STATES } from "./payment-state";
import { unsafeTakeEarlyEvents } from "./payment-test-switches";
import { failRefund } from "./refund-failed-later";

/** A refund's own event (Stripe's `refund.updated`, `refund.failed`, `charge.refund.updated`), as the domain reads it. */
export interface RefundEvent {
  /** The PSP's event id: the inbox key. */
  id: string;
  refundId: string;
  /** The refund's status now: `pending`, `requires_action`, `succeeded`, `failed` or `canceled`. */
  status: string;
  /** The PSP's reason for a failed or canceled refund. */
  reason?: string;
  /** Our reference (the refund's `metadata.payment_id`). */
  reference?: string;
  /** The idempotency key of our request that caused the event; none when the PSP changed the refund itself. */
  key?: string;
}

/** What applying a refund's event came to. */
export interface RefundEventOutcome {
  applied: boolean;
  duplicate: boolean;
  unknownPayment?: boolean;
  /** The event moved the payment to REFUND_FAILED (the RefundFailedLater anomaly). */
  refundFailedLater?: boolean;
}

/**
 * Applies a refund's event at most once (the inbox item keyed by the event id, in the move's transaction): a pending
 * refund that succeeded → REFUNDED; one that failed or was canceled after it was accepted → REFUND_FAILED (the
 * merchant's debit taken back, the buyer told, the anomaly counted). Only the row's own refund attempt is moved; news
 * of another attempt's refund, or of a refund still pending, is remembered and changes nothing. News of a refund of
 * ours that the row has not heard of yet, or for a payment this Region has no row for yet (this Region is behind the
 * refund's writes), waits: 503 `event-ahead`.
 */
export async function applyRefundEvent(deps: PaymentDeps, e: RefundEvent): Promise<RefundEventOutcome> {
  const paymentId = paymentIdFromPspKey(e.key ?? "") ?? e.reference ?? "";
  const row = paymentId ? await deps.ledger.getPayment(paymentId) : undefined;
  if (!row && !(paymentId && !unsafeTakeEarlyEvents()))
    return { applied: false, duplicate: false, unknownPayment: true };
  if (!row) throw notYet(e, paymentId, "which this Region has no row for yet");
  if (behindTheRefund(row) && !unsafeTakeEarlyEvents())
    throw notYet(e, paymentId, `${row.state} here with no refund started`);
  const now = deps.clock.now();
  if (ofThisAttempt(row, e) && (e.status === "failed" || e.status === "canceled")) {
    const failure = { refundId: e.refundId, reason: e.reason ?? e.status, inboxEventId: e.id };
    const failed = await failRefund(deps, row, failure);
    if (failed.moved) return { applied: true, duplicate: false, refundFailedLater: true };
    if (failed.duplicate) return { applied: false, duplicate: true };
  } else if (ofThisAttempt(row, e) && e.status === "succeeded") {
    const set = { psp_refund: e.refundId };
    const moved = await deps.ledger.move({
      paymentId,
      to: "REFUNDED",
      set,
      from: REFUND_STATES,
      inboxEventId: e.id,
      now,
    });
    if (moved.moved) return { applied: true, duplicate: false };
    if (moved.duplicate) return { applied: false, duplicate: true };
  }
  const fresh = await deps.ledger.rememberWebhookEvent(e.id, paymentId, now);
  return { applied: false, duplicate: !fresh };
}

// The event names a payment of ours (our key, or the metadata we gave the refund: a refund made at the PSP directly
// carries neither), so the refund's REFUND_PENDING was written before the PSP was called. A row still open or SUCCEEDED
// that has started no refund attempt has not heard of it: after a forced failover the refund's writes are still in
// the old Region. Taken with a 200, the event would be remembered as seen and a refund Stripe failed later lost for
// good (REFUNDED arriving by replication after it: sim seed 882001, real-world, indexes 66 and 147); refused, the PSP
// delivers it again with backoff, here once the writes replicate, or in the old Region after a failover back. A row
// that had an attempt may get a stray event of an earlier attempt's refund: that one is remembered, as before.
// A Region with no row at all for the payment the event names is further behind still: a forced failover to a
// standby that had not yet received the payment's writes (sim seed 882003, real-world, schedule 822: paid and
// refunded in the primary, the primary cut off at once, Stripe's refund.failed met the standby with no row). Taken
// with a 200 as about no payment of ours, the failure was lost, and the primary, active again, kept REFUNDED.
function behindTheRefund(row: PaymentRow): boolean {
  if (row.refund_attempt !== undefined || row.psp_refund !== undefined) return false;
  return row.state === "SUCCEEDED" || CHARGE_OPEN_STATES.includes(row.state);
}

function notYet(e: RefundEvent, paymentId: string, here: string): Refusal {
  const why = `(refund ${e.refundId} ${e.status}) names payment ${paymentId}, ${here}`;
  return new Refusal("event-ahead", `event ${e.id} ${why}; deliver it again later`, 2);
}

// The row's refund is the event's when the row names it, or, before the row learned its id (a reply lost, or a refund
// made at the PSP directly that moved the row REFUNDED), when the event's key is the attempt's own or the event
// carries no key (the PSP changed the refund itself).
function ofThisAttempt(row: PaymentRow, e: RefundEvent): boolean {
  if (row.psp_refund !== undefined) return row.psp_refund === e.refundId;
  if (!REFUND_STATES.includes(row.state) && row.state !== "REFUNDED") return false;
  return e.key === undefined || e.key === refundKeyOf(row.payment_id, row.refund_attempt);
}
