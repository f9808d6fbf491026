import { cancelPayment, parsePaymentId, paymentDeps } from "@eo/core";
import { callerOf, httpHandler } from "../shared/http-handler";
import { logger } from "../shared/observability";

/** POST /payments/{payment_id}/cancel: a refund with the derived refund key; repeats are safe. */
export const handler = httpHandler("cancel-payment", async (event) => {
  const caller = callerOf(event);
  const paymentId = parsePaymentId(event.pathParameters?.payment_id);
  const answer = await cancelPayment(paymentDeps(), caller, paymentId);
  logger.info("cancel answered", { payment_id: paymentId, status: answer.status });
  return answer;
});
