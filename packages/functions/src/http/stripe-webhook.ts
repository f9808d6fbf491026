import { MetricUnit } from "@aws-lambda-powertools/metrics";
import {
  applyPspEvent,
  applyRefundEvent,
  mapStripeEvent,
  otherDeploymentOf,
  paymentDeps,
  Refusal,
  webhookSecretOf,
} from "@eo/core";
import Stripe from "stripe";
import { bodyOf, httpHandler } from "../shared/http-handler";
import { logger, metrics } from "../shared/observability";

/** A Stripe event is a few kilobytes; a much larger body is not one (the same limit as /webhooks/psp). */
const MAX_WEBHOOK_BYTES = 64 * 1024;

/** POST /webhooks/stripe: a Stripe event, checked by the SDK, mapped onto the PSP event and applied at most once. */
export const handler = httpHandler("stripe-webhook", async (event) => {
  const deps = paymentDeps();
  const raw = bodyOf(event) ?? "";
  if (Buffer.byteLength(raw, "utf8") > MAX_WEBHOOK_BYTES)
    throw new Refusal(
      "too-large",
      `the webhook body is over ${MAX_WEBHOOK_BYTES} bytes; a Stripe event is not`,
    );
  const header = event.headers["stripe-signature"];
  if (!header) throw new Refusal("bad-request", "webhook signature rejected: no Stripe-Signature header");
  const secret = webhookSecretOf(deps.config, "stripe");
  let verified: unknown;
  try {
    // 300 s tolerance by our clock (the local stack's can be moved), as the generic route checks Psp-Signature.
    verified = Stripe.webhooks.constructEvent(raw, header, secret, 300, undefined, deps.clock.now());
  } catch (err) {
    throw new Refusal(
      "bad-request",
      `webhook signature rejected: ${(err as Error).message.split(/\.\s/)[0]}`,
    );
  }
  // Another stage on the same Stripe account: 200, so that Stripe stops sending it here, and nothing changes.
  const another = otherDeploymentOf(verified, deps.config.deployment);
  if (another) return { status: 200, body: { received: true, ignored: another } };
  const mapped = mapStripeEvent(verified);
  if (mapped.kind === "ignored") return { status: 200, body: { received: true, ignored: mapped.reason } };
  if (mapped.kind === "refund") {
    const outcome = await applyRefundEvent(deps, mapped.event);
    // The RefundFailedLater metric is counted by the domain as the payment moves (it pages); the log names it.
    if (outcome.refundFailedLater)
      logger.error("PSP failed a refund after accepting it", {
        event_id: mapped.event.id,
        refund: mapped.event.refundId,
        reason: mapped.event.reason,
      });
    logger.info("stripe refund event", {
      event_id: mapped.event.id,
      status: mapped.event.status,
      ...outcome,
    });
    return { status: 200, body: { received: true, ...outcome } };
  }
  const result = await applyPspEvent(deps, mapped.event, {
    refundStatusUnknown: mapped.refundStatusUnknown === true,
  });
  if (result.anomaly) {
    // Stripe charged a payment we answered as FAILED: money moved that the buyer was told did not.
    logger.error("PSP charged a FAILED payment", {
      event_id: mapped.event.id,
      charge: mapped.event.data.charge.id,
    });
    metrics.addMetric("PaymentAnomalies", MetricUnit.Count, 1);
    metrics.publishStoredMetrics();
  }
  logger.info("stripe event", { event_id: mapped.event.id, type: mapped.event.type, ...result });
  return { status: 200, body: { received: true, ...result } };
});
