import type { PaymentRow } from "../ledger/ledger-items";
import type { Move } from "../ledger/ledger-port";
import type { PspReply } from "../psp/psp-port";
import type { PaymentDeps } from "./payment-deps";
import { REFUND_STATES } from "./payment-state";
import { failRefund } from "./refund-failed-later";

/**
 * Applies the PSP's answer to a refund attempt: succeeded or already refunded → REFUNDED; accepted but not final →
 * stays REFUND_PENDING with the refund's id, to be read by it; failed after it was accepted → REFUND_FAILED; a
 * definite refusal → back to SUCCEEDED with the PSP's reason; not run (429, no budget slot) → unchanged, for the
 * resolver; anything else → REFUND_UNKNOWN for the resolver, never a guess.
 */
export async function settleRefund(deps: PaymentDeps, row: PaymentRow, reply: PspReply): Promise<PaymentRow> {
  const paymentId = row.payment_id;
  if (reply.kind === "rate-limited") return (await deps.ledger.getPayment(paymentId)) ?? row;
  if (reply.kind === "refund-failed")
    return (await failRefund(deps, row, { refundId: reply.id, reason: reply.reason })).row;
  if (reply.kind === "refund-pending" && row.state === "REFUND_PENDING" && row.psp_refund === reply.id)
    return row;
  const result = await deps.ledger.move({ ...moveOf(reply), paymentId, now: deps.clock.now() });
  const after = result.row ?? (await deps.ledger.getPayment(paymentId));
  if (!after) throw new Error(`payment ${paymentId} vanished from the ledger`);
  return after;
}

function moveOf(reply: PspReply): Omit<Move, "paymentId" | "now"> {
  const from = REFUND_STATES;
  if (reply.kind === "done") return { to: "REFUNDED", set: { psp_refund: reply.id }, from };
  if (reply.kind === "already-refunded") return { to: "REFUNDED", from };
  if (reply.kind === "refund-pending") return { to: "REFUND_PENDING", set: { psp_refund: reply.id }, from };
  if (reply.kind === "refused") return { to: "SUCCEEDED", set: { refund_refusal: reply.reason }, from };
  return { to: "REFUND_UNKNOWN", from: ["REFUND_PENDING"] };
}
