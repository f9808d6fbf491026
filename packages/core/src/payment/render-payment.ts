import type { ClaimAnswer } from "../claim/claim-answer";
import type { PaymentRow } from "../ledger/ledger-items";

/** An HTTP-shaped answer, built in the domain so that a stored final answer is the one first given. */
export interface Rendered {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** How long a client should wait before asking again about an unsettled payment. */
export const RETRY_AFTER_S = 2;

/** Renders a payment row as the contract's answer to POST /payments. */
export function renderPayment(
  row: PaymentRow,
): (ClaimAnswer & { kind: "final" }) | { kind: "pointer"; payment_id: string } {
  if (row.state === "PENDING" || row.state === "UNKNOWN")
    return { kind: "pointer", payment_id: row.payment_id };
  if (row.state === "FAILED") {
    return {
      kind: "final",
      status: 402,
      body: { payment_id: row.payment_id, state: "FAILED", decline_code: row.decline_code },
    };
  }
  // The charge succeeded; later refund states do not change the answer to the charge request.
  return {
    kind: "final",
    status: 201,
    body: {
      payment_id: row.payment_id,
      state: "SUCCEEDED",
      order_id: row.order_id,
      amount: row.amount,
      currency: row.currency,
      merchant_id: row.merchant_id,
      psp_charge: row.psp_charge,
    },
  };
}

/** The 202 for an outcome not yet known: rendered from the ledger on every call, never stored. */
export function renderProcessing(paymentId: string): Rendered {
  return {
    status: 202,
    body: { payment_id: paymentId, state: "PROCESSING" },
    headers: { "retry-after": String(RETRY_AFTER_S) },
  };
}

/** Turns a final answer into the HTTP answer, marking a repeat as replayed. */
export function renderFinal(
  answer: { status: number; body: Record<string, unknown> },
  replayed: boolean,
): Rendered {
  return {
    status: answer.status,
    body: answer.body,
    headers: replayed ? { "idempotent-replayed": "true" } : {},
  };
}

/** The public view of a payment for GET /payments/{id}. */
export function paymentView(row: PaymentRow): Record<string, unknown> {
  const { payment_id, state, order_id, amount, currency, merchant_id, psp_charge, decline_code, created_at } =
    row;
  // The PSP's reason shows only while the refund it failed is the payment's state (a later cancel tries again).
  const failure = state === "REFUND_FAILED" ? { refund_failure_reason: row.refund_failure_reason } : {};
  const shown = state === "PENDING" || state === "UNKNOWN" ? "PROCESSING" : state;
  return {
    payment_id,
    state: shown,
    order_id,
    amount,
    currency,
    merchant_id,
    psp_charge,
    decline_code,
    created_at,
    ...failure,
  };
}
