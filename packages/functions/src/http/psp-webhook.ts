import { MetricUnit } from "@aws-lambda-powertools/metrics";
import {
  applyPspEvent,
  parsePspEvent,
  paymentDeps,
  Refusal,
  verifyWebhookSignature,
  webhookSecretOf,
} from "@eo/core";
import { bodyOf, httpHandler } from "../shared/http-handler";
import { logger, metrics } from "../shared/observability";

/** A PSP event is a few hundred bytes; a much larger body is not one. */
const MAX_WEBHOOK_BYTES = 64 * 1024;

/** POST /webhooks/psp: a signed PSP event, applied at most once through the inbox keyed by its id. */
export const handler = httpHandler("psp-webhook", async (event) => {
  const deps = paymentDeps();
  const raw = bodyOf(event) ?? "";
  if (Buffer.byteLength(raw, "utf8") > MAX_WEBHOOK_BYTES)
    throw new Refusal("too-large", `the webhook body is over ${MAX_WEBHOOK_BYTES} bytes; a PSP event is not`);
  const signature = event.headers["psp-signature"];
  // On a Stripe stage this route has no secret (404, naming /webhooks/stripe); elsewhere as before.
  const secret = webhookSecretOf(deps.config, "generic");
  const check = verifyWebhookSignature(secret, raw, signature, deps.clock.now());
  if (!check.ok) throw new Refusal("bad-request", `webhook signature rejected: ${check.reason}`);
  const pspEvent = parsePspEvent(raw);
  const result = await applyPspEvent(deps, pspEvent);
  if (result.anomaly) {
    // The PSP charged a payment we answered as FAILED: money moved that the buyer was told did not.
    logger.error("PSP charged a FAILED payment", { event_id: pspEvent.id, charge: pspEvent.data.charge.id });
    metrics.addMetric("PaymentAnomalies", MetricUnit.Count, 1);
    metrics.publishStoredMetrics();
  }
  logger.info("psp event", { event_id: pspEvent.id, type: pspEvent.type, ...result });
  return { status: 200, body: { received: true, ...result } };
});
