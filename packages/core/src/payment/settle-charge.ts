import type { PaymentRow } from "../ledger/ledger-items";
import type { PspReply } from "../psp/psp-port";
import type { PaymentDeps } from "./payment-deps";

/**
 * Applies the PSP's answer to a charge as an allowed move by compare-and-set. An unknown outcome
 * moves PENDING to UNKNOWN, never to FAILED; a request the PSP did not run (429, no budget slot) moves
 * nothing, and the resolver sends it later with the same key. If someone else (webhook, resolver) moved
 * the row first, the row as they left it is the answer.
 */
export async function settleCharge(
  deps: PaymentDeps,
  paymentId: string,
  reply: PspReply,
  expected?: PaymentRow,
): Promise<PaymentRow> {
  const now = deps.clock.now();
  if (reply.kind === "rate-limited") {
    const row = await deps.ledger.getPayment(paymentId);
    if (!row) throw new Error(`payment ${paymentId} vanished from the ledger`);
    return row;
  }
  const move =
    reply.kind === "done"
      ? deps.ledger.move({ paymentId, to: "SUCCEEDED", set: { psp_charge: reply.id }, now, expected })
      : reply.kind === "declined"
        ? deps.ledger.move({
            paymentId,
            to: "FAILED",
            set: { decline_code: reply.declineCode },
            now,
            expected,
          })
        : deps.ledger.move({ paymentId, to: "UNKNOWN", now, expected });
  const result = await move;
  const row = result.row ?? (await deps.ledger.getPayment(paymentId));
  if (!row) throw new Error(`payment ${paymentId} vanished from the ledger`);
  return row;
}
