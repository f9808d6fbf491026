import { parseIdempotencyKey, paymentDeps, RETRY_AFTER_S, resolveKey } from "@eo/core";
import { epochContext } from "../shared/epoch-now";
import { callerOf, httpHandler } from "../shared/http-handler";
import { logger } from "../shared/observability";

/** POST /payments/resolve: "did it go through?" — and an absent key becomes VOID for good. */
export const handler = httpHandler("resolve-payment", async (event) => {
  const caller = callerOf(event);
  const key = parseIdempotencyKey(event.headers["idempotency-key"]);
  const { retryAfterS, ...result } = await resolveKey(paymentDeps(), caller, key, epochContext());
  logger.info("key resolved", { payment_id: result.payment_id, state: result.state });
  // PROCESSING says when to ask again (a "not found" that may lag says when it will be final).
  const headers =
    result.state === "PROCESSING" ? { "retry-after": String(retryAfterS ?? RETRY_AFTER_S) } : undefined;
  return { status: 200, body: result, ...(headers ? { headers } : {}) };
});
