import type { PaymentRequest } from "@eo/contract";
import { type PaymentsClientOptions, runtimeOf } from "./client-options";
import { cancel } from "./operations/cancel";
import { getPayment } from "./operations/get-payment";
import { pay } from "./operations/pay";
import { resolve } from "./operations/resolve";
import type { CancelOutcome, GetPaymentOutcome, PayResult, ResolveOutcome } from "./results";

/** The payments API as an app calls it: typed results, never raw HTTP. */
export interface PaymentsClient {
  /** Pays an order once, under the order's journaled key (made before the first send). */
  pay(order: PaymentRequest): Promise<PayResult>;
  /** "Did it go through?" for the order's key: VOID lets the next pay make a new key. */
  resolve(orderId: string): Promise<ResolveOutcome>;
  /** Refunds a payment; 202 REFUND_PENDING is polled until REFUNDED or the horizon. */
  cancel(paymentId: string): Promise<CancelOutcome>;
  getPayment(paymentId: string): Promise<GetPaymentOutcome>;
}

/** Builds a payments client that runs in Node 20+, browsers and React Native (global fetch). */
export function createPaymentsClient(options: PaymentsClientOptions): PaymentsClient {
  const rt = runtimeOf(options);
  return {
    pay: (order) => pay(rt, order),
    resolve: (orderId) => resolve(rt, orderId),
    cancel: (paymentId) => cancel(rt, paymentId),
    getPayment: (paymentId) => getPayment(rt, paymentId),
  };
}
