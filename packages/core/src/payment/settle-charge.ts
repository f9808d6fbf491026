import type { PaymentRow } from "../ledger/ledger-items";
import type { Move } from "../ledger/ledger-port";
import type { PspReply } from "../psp/psp-port";
import type { PaymentDeps } from "./payment-deps";
import { sourcesOf } from "./payment-state";

/**
 * Applies the PSP's answer to a charge as an allowed move by compare-and-set. An unknown outcome
 * moves PENDING to UNKNOWN, never to FAILED; a request the PSP did not run (429, no budget slot, credentials it
 * refused) moves nothing, and the resolver sends it later with the same key. If someone else (webhook, resolver) moved
 * the row first, the row as they left it is the answer.
 */
export async function settleCharge(
  deps: PaymentDeps,
  paymentId: string,
  reply: PspReply,
  expected?: PaymentRow,
): Promise<PaymentRow> {
  const now = deps.clock.now();
  if (reply.kind === "rate-limited" || reply.kind === "misconfigured") {
    const row = await deps.ledger.getPayment(paymentId);
    if (!row) throw new Error(`payment ${paymentId} vanished from the ledger`);
    return row;
  }
  const move =
    reply.kind === "done"
      ? deps.ledger.move({ paymentId, ...chargeDone(reply), now, expected })
      : reply.kind === "declined"
        ? deps.ledger.move({
            paymentId,
            to: "FAILED",
            set: { decline_code: reply.declineCode },
            now,
            expected,
          })
        : deps.ledger.move({ paymentId, to: "UNKNOWN", set: openOf(reply), now, expected });
  const result = await move;
  const row = result.row ?? (await deps.ledger.getPayment(paymentId));
  if (!row) throw new Error(`payment ${paymentId} vanished from the ledger`);
  return row;
}

// A charge the PSP accepted and is still finishing keeps its id on the row, to be read by it (replayCharge).
function openOf(reply: PspReply): Move["set"] {
  return reply.kind === "unknown" && reply.id ? { psp_charge_open: reply.id } : undefined;
}

// A lookup that finds the charge refunded settles the payment to REFUNDED in one move, the sale and its refund
// journalled together (and the merchant credited and debited once each by their events): settling it SUCCEEDED
// would tell the buyer and the merchant a payment the PSP has given back, and no refund webhook may ever come here,
// since the PSP delivered it to the Region that made the refund (found by the fault checker's two-Region schedules).
function chargeDone(reply: PspReply & { kind: "done" }): Pick<Move, "to" | "set" | "from"> {
  if (!reply.refunded) return { to: "SUCCEEDED", set: { psp_charge: reply.id } };
  return { to: "REFUNDED", set: { psp_charge: reply.id }, from: sourcesOf("REFUNDED") };
}
