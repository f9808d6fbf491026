import { crashPoint } from "../faults/crash-point";
import { paymentIdFromPspKey } from "../ids/derive-ids";
import type { Move } from "../ledger/ledger-port";
import type { PaymentDeps } from "./payment-deps";
import { Refusal } from "./payment-errors";
import { CHARGE_OPEN_STATES, REFUND_STATES } from "./payment-state";
import { unsafeTakeEarlyEvents } from "./payment-test-switches";
import type { PspEvent } from "./psp-event";

export { type PspEvent, parsePspEvent } from "./psp-event";

/** How an event is read. */
export interface ApplyOptions {
  /**
   * The event says the charge was refunded but not that its refund succeeded (Stripe's `charge.refunded` is sent when
   * a refund is created, even one Stripe holds pending): it settles no refund attempt of ours in flight, which the
   * refund's own events or a read of it by id settle; it still moves a SUCCEEDED payment refunded at the PSP directly.
   */
  refundStatusUnknown?: boolean;
}

/** What applying one PSP event came to. */
export interface PspEventOutcome {
  applied: boolean;
  duplicate: boolean;
  /** The event names no payment of ours: nothing was written. */
  unknownPayment?: boolean;
  /** The PSP says a FAILED payment was charged: recorded on the row for reconciliation and a person. */
  anomaly?: boolean;
}

/**
 * Applies a PSP event at most once: the inbox item keyed by the PSP's event id is written in the
 * same transaction as the allowed move; a late or repeated event is harmless (Part 5).
 */
export async function applyPspEvent(
  deps: PaymentDeps,
  e: PspEvent,
  opts: ApplyOptions = {},
): Promise<PspEventOutcome> {
  const charge = e.data.charge;
  const derived = paymentIdFromPspKey(charge.idempotency_key ?? "");
  const paymentId = derived ?? charge.reference ?? "";
  const row = paymentId ? await deps.ledger.getPayment(paymentId) : undefined;
  if (!row && !(derived && !unsafeTakeEarlyEvents()))
    return { applied: false, duplicate: false, unknownPayment: true };
  if (!row) throw notYet(e, `names payment ${paymentId}, which this Region has no row for yet`);
  if (e.type === "refund.succeeded" && CHARGE_OPEN_STATES.includes(row.state) && !unsafeTakeEarlyEvents())
    throw notYet(e, `refunds payment ${paymentId}, whose charge is still ${row.state} here`);
  const now = deps.clock.now();
  if (opts.refundStatusUnknown && e.type === "refund.succeeded" && REFUND_STATES.includes(row.state))
    return { applied: false, duplicate: !(await deps.ledger.rememberWebhookEvent(e.id, paymentId, now)) };
  const result = await deps.ledger.move({ ...moveOf(e, paymentId, now), expected: row });
  if (result.moved) {
    await crashPoint("webhook.after_apply");
    return { applied: true, duplicate: false };
  }
  if (result.duplicate) return { applied: false, duplicate: true };
  // Not an allowed move now (already settled): remember the event all the same.
  const fresh = await deps.ledger.rememberWebhookEvent(e.id, paymentId, now);
  const after = result.row ?? row;
  if (!fresh || e.type !== "charge.succeeded" || after.state !== "FAILED") {
    return { applied: false, duplicate: !fresh };
  }
  const anomaly = {
    kind: "charge-succeeded-for-failed" as const,
    psp_charge: charge.id,
    psp_event: e.id,
    at: now,
  };
  await deps.ledger.recordAnomaly(paymentId, anomaly);
  return { applied: false, duplicate: false, anomaly: true };
}

// A key of ours means the row was written before the PSP was called (the durable guard), so a missing row is one still
// replicating from the other Region after a failover, and a refund before its charge settled is one the resolver is
// about to settle. Taking either now would drop it for good (the inbox remembers it, or nothing does); refused, the
// PSP delivers it again with backoff (found by the fault checker's two-Region schedules).
function notYet(e: PspEvent, why: string): Refusal {
  return new Refusal("event-ahead", `event ${e.id} (${e.type}) ${why}; deliver it again later`, 2);
}

// The decline code is the PSP's own, whichever path (reply, webhook, lookup) settles the payment.
function moveOf(e: PspEvent, paymentId: string, now: number): Move {
  const base = { paymentId, inboxEventId: e.id, now };
  const charge = e.data.charge;
  if (e.type === "charge.succeeded") return { ...base, to: "SUCCEEDED", set: { psp_charge: charge.id } };
  if (e.type === "charge.failed")
    return { ...base, to: "FAILED", set: { decline_code: charge.decline_code ?? "card_declined" } };
  return { ...base, to: "REFUNDED", ...(e.data.refund?.id ? { set: { psp_refund: e.data.refund.id } } : {}) };
}
