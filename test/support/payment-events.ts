import type { PaymentEvent } from "../../packages/core/src";

/** The `payment.succeeded` event the relay sends for a payment, as a test puts it straight into a queue. */
export function succeededEvent(
  paymentId: string,
  merchant: string,
  amount: number,
  caller = "u1",
): PaymentEvent {
  return {
    event_id: `${paymentId}:SUCCEEDED`,
    type: "payment.succeeded",
    payment_id: paymentId,
    merchant_id: merchant,
    caller,
    amount,
    currency: "USD",
    occurred_at: Date.now(),
  };
}
