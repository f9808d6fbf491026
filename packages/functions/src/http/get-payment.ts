import { getPayment, parsePaymentId, paymentDeps } from "@eo/core";
import { callerOf, httpHandler } from "../shared/http-handler";

/** GET /payments/{payment_id}: the payment for its owner, 404 for anyone else. */
export const handler = httpHandler("get-payment", async (event) => {
  const caller = callerOf(event);
  const paymentId = parsePaymentId(event.pathParameters?.payment_id);
  const body = await getPayment(paymentDeps(), caller, paymentId);
  return { status: 200, body };
});
