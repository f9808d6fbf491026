import { parseIdempotencyKey, paymentDeps, resolveKey } from "@eo/core";
import { epochNow } from "../shared/epoch-now";
import { callerOf, httpHandler } from "../shared/http-handler";
import { logger } from "../shared/observability";

/** POST /payments/resolve: "did it go through?" — and an absent key becomes VOID for good. */
export const handler = httpHandler("resolve-payment", async (event) => {
  const caller = callerOf(event);
  const key = parseIdempotencyKey(event.headers["idempotency-key"]);
  const result = await resolveKey(paymentDeps(), caller, key, { epochNow });
  logger.info("key resolved", { payment_id: result.payment_id, state: result.state });
  return { status: 200, body: result };
});
