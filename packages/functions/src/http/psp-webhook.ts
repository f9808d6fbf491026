import { applyPspEvent, parsePspEvent, paymentDeps, Refusal, verifyWebhookSignature } from "@eo/core";
import { bodyOf, httpHandler } from "../shared/http-handler";
import { logger } from "../shared/observability";

/** POST /webhooks/psp: a signed PSP event, applied at most once through the inbox keyed by its id. */
export const handler = httpHandler("psp-webhook", async (event) => {
  const deps = paymentDeps();
  const raw = bodyOf(event) ?? "";
  const check = verifyWebhookSignature(
    deps.config.pspWebhookSecret,
    raw,
    event.headers["psp-signature"],
    deps.clock.now(),
  );
  if (!check.ok) throw new Refusal("bad-request", `webhook signature rejected: ${check.reason}`);
  const pspEvent = parsePspEvent(raw);
  const result = await applyPspEvent(deps, pspEvent);
  logger.info("psp event", { event_id: pspEvent.id, type: pspEvent.type, ...result });
  return { status: 200, body: { received: true, ...result } };
});
