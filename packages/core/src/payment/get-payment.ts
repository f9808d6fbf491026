import type { PaymentDeps } from "./payment-deps";
import { Refusal } from "./payment-errors";
import { paymentView } from "./render-payment";

/** Reads a payment for its owner; anyone else hears 404, never 403, so ids cannot be probed. */
export async function getPayment(
  deps: PaymentDeps,
  caller: string,
  paymentId: string,
): Promise<Record<string, unknown>> {
  // The handler has checked the id's shape (parsePaymentId), so it fits a DynamoDB key.
  const row = await deps.ledger.getPayment(paymentId);
  if (!row || row.caller !== caller) throw new Refusal("not-found", `no payment ${paymentId}`);
  return paymentView(row);
}
