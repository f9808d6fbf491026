import type { PaymentRow } from "../ledger/ledger-items";
import { countSignal } from "../signals/signal-sink";
import type { PaymentDeps } from "./payment-deps";
import type { PaymentState } from "./payment-state";

/** The states a refund the PSP failed after accepting it (or answering it succeeded) leaves. */
export const REFUND_FAILABLE: readonly PaymentState[] = ["REFUND_PENDING", "REFUND_UNKNOWN", "REFUNDED"];

/** The refund that failed, as the PSP named it, and what told us (an event's id, for the inbox). */
export interface RefundFailure {
  refundId: string;
  reason: string;
  inboxEventId?: string;
}

/**
 * Moves a payment whose refund the PSP failed later to REFUND_FAILED, once: from REFUNDED the move's entry takes the
 * merchant's debit back through the outbox (and the buyer is told); the anomaly is kept on the row for a person and
 * counted (`RefundFailedLater`, it pages). A failure of another attempt's refund than the row's changes nothing.
 */
export async function failRefund(
  deps: PaymentDeps,
  row: PaymentRow,
  failure: RefundFailure,
): Promise<{ row: PaymentRow; moved: boolean; duplicate?: boolean }> {
  const now = deps.clock.now();
  if (row.psp_refund !== undefined && row.psp_refund !== failure.refundId) return { row, moved: false };
  const anomaly = {
    kind: "refund-failed-later" as const,
    psp_charge: row.psp_charge ?? "",
    psp_event: failure.inboxEventId ?? failure.refundId,
    at: now,
  };
  const result = await deps.ledger.move({
    paymentId: row.payment_id,
    to: "REFUND_FAILED",
    set: { psp_refund: failure.refundId, refund_failure_reason: failure.reason, anomaly },
    from: REFUND_FAILABLE,
    now,
    ...(failure.inboxEventId ? { inboxEventId: failure.inboxEventId } : {}),
  });
  if (result.moved) countSignal("RefundFailedLater");
  const after = result.row ?? (await deps.ledger.getPayment(row.payment_id)) ?? row;
  return { row: after, moved: result.moved, ...(result.moved ? {} : { duplicate: result.duplicate }) };
}
