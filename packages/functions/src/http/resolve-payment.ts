import { parseIdempotencyKey, paymentDeps, regionGate, resolveKey } from "@eo/core";
import { callerOf, httpHandler } from "../shared/http-handler";
import { logger } from "../shared/observability";

// Today's epoch is read fresh, not from the handlers' cache: a view from before a failover would make a
// tombstone of an earlier epoch look like this one's and let VOID stand for a key charged elsewhere.
const epochNow = async () => (await regionGate().controlNow())?.epoch;

/** POST /payments/resolve: "did it go through?" — and an absent key becomes VOID for good. */
export const handler = httpHandler("resolve-payment", async (event) => {
  const caller = callerOf(event);
  const key = parseIdempotencyKey(event.headers["idempotency-key"]);
  const result = await resolveKey(paymentDeps(), caller, key, { epochNow });
  logger.info("key resolved", { payment_id: result.payment_id, state: result.state });
  return { status: 200, body: result };
});
