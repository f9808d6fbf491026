import { makeTakePayment, parseIdempotencyKey, parsePaymentBody, paymentDeps } from "@eo/core";
import { epochContext } from "../shared/epoch-now";
import { bodyOf, callerOf, emailOf, httpHandler } from "../shared/http-handler";
import { logger } from "../shared/observability";

let takePayment: ReturnType<typeof makeTakePayment> | undefined;

/** POST /payments: one payment per (caller, Idempotency-Key), answered the same way on every repeat. */
export const handler = httpHandler("create-payment", async (event) => {
  const caller = callerOf(event);
  const key = parseIdempotencyKey(event.headers["idempotency-key"]);
  const request = parsePaymentBody(bodyOf(event));
  takePayment ??= makeTakePayment(paymentDeps());
  const answer = await takePayment(
    { caller, key, request, email: emailOf(event), arrivalMs: event.requestContext.timeEpoch },
    // A void of an earlier epoch than today's is checked at the PSP before a 409 key-voided (issue 26).
    epochContext(),
  );
  logger.info("payment answered", { payment_id: answer.body.payment_id, status: answer.status });
  return answer;
});
