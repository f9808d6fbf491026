import { refundKeyOf } from "../ids/derive-ids";
import type { PaymentRow } from "../ledger/ledger-items";
import type { PspReply } from "../psp/psp-port";
import type { PaymentDeps } from "./payment-deps";
import { Refusal } from "./payment-errors";
import type { Rendered } from "./render-payment";

/** How long a refund call may take inside one API request. */
const REFUND_TIMEOUT_MS = 4_000;

/**
 * Refunds a succeeded payment with its derived refund key. The intent (REFUND_PENDING) is recorded
 * before the call, so every retry, here or in the resolver, is the same refund (Part 4).
 */
export async function cancelPayment(deps: PaymentDeps, caller: string, paymentId: string): Promise<Rendered> {
  let row = await deps.ledger.getPayment(paymentId);
  if (!row || row.caller !== caller) throw new Refusal("not-found", `no payment ${paymentId}`);
  if (row.state === "REFUNDED") return refunded(row);
  if (row.state === "SUCCEEDED") {
    const moved = await deps.ledger.move({ paymentId, to: "REFUND_PENDING", now: deps.clock.now() });
    row = moved.row ?? row;
    if (row.state === "REFUNDED") return refunded(row);
  }
  if (row.state !== "REFUND_PENDING" && row.state !== "REFUND_UNKNOWN") {
    throw new Refusal("invalid-state", `only a SUCCEEDED payment can be cancelled; this one is ${row.state}`);
  }
  const reply = await deps.psp.refund(
    refundKeyOf(paymentId),
    row.psp_charge ?? "",
    paymentId,
    REFUND_TIMEOUT_MS,
  );
  const settled = await settleRefund(deps, paymentId, reply);
  return settled.state === "REFUNDED" ? refunded(settled) : pending(settled);
}

/** Applies the PSP's answer to a refund; anything but a success leaves it REFUND_UNKNOWN for the resolver. */
export async function settleRefund(
  deps: PaymentDeps,
  paymentId: string,
  reply: PspReply,
): Promise<PaymentRow> {
  const now = deps.clock.now();
  const result =
    reply.kind === "done"
      ? await deps.ledger.move({ paymentId, to: "REFUNDED", set: { psp_refund: reply.id }, now })
      : await deps.ledger.move({ paymentId, to: "REFUND_UNKNOWN", now });
  const row = result.row ?? (await deps.ledger.getPayment(paymentId));
  if (!row) throw new Error(`payment ${paymentId} vanished from the ledger`);
  return row;
}

const refunded = (row: PaymentRow): Rendered => ({
  status: 200,
  body: { payment_id: row.payment_id, state: "REFUNDED" },
  headers: {},
});

const pending = (row: PaymentRow): Rendered => ({
  status: 202,
  body: { payment_id: row.payment_id, state: "REFUND_PENDING" },
  headers: { "retry-after": "2" },
});
