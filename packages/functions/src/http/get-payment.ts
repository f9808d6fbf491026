import { getPayment, paymentDeps } from "@eo/core";
import { callerOf, httpHandler } from "../shared/http-handler";

/** GET /payments/{payment_id}: the payment for its owner, 404 for anyone else. */
export const handler = httpHandler("get-payment", async (event) => {
  const caller = callerOf(event);
  const body = await getPayment(paymentDeps(), caller, event.pathParameters?.payment_id ?? "");
  return { status: 200, body };
});
