import type { PspEvent } from "@eo/contract";
import { clock } from "../../packages/core/src/clock/clock";
import { signWebhook } from "../../packages/core/src/psp/webhook-signature";
import { localSecrets } from "../../packages/local/src/stack/handler-env";
import type { LocalStack } from "../../packages/local/src/stack/start-stack";
import { ApiClient } from "./api-client";

type Charge = PspEvent["data"]["charge"];

// Stripe's shape of the contract's event (the inverse of packages/core/src/payment/stripe-event.ts): what the PSP of
// a Stripe-dialect stage would post for the same fact, so one trace runs against either dialect.
function stripeEventOf(e: PspEvent): Record<string, unknown> {
  const c: Charge = e.data.charge;
  const metadata = c.reference ? { payment_id: c.reference } : {};
  const object =
    e.type === "refund.succeeded"
      ? {
          id: `ch_of_${c.id}`,
          object: "charge",
          payment_intent: c.id,
          refunded: true,
          metadata,
          refunds: { object: "list", data: e.data.refund?.id ? [{ id: e.data.refund.id }] : [] },
        }
      : {
          id: c.id,
          object: "payment_intent",
          status: e.type === "charge.succeeded" ? "succeeded" : "requires_payment_method",
          metadata,
          ...(e.type === "charge.failed"
            ? {
                last_payment_error: { type: "card_error", decline_code: c.decline_code ?? "generic_decline" },
              }
            : {}),
        };
  const type = {
    "charge.succeeded": "payment_intent.succeeded",
    "charge.failed": "payment_intent.payment_failed",
  }[e.type as string];
  return {
    id: e.id,
    object: "event",
    api_version: "2026-11-18.endive",
    created: Math.floor(clock.now() / 1000),
    type: type ?? "charge.refunded",
    data: { object },
    livemode: false,
    request: { id: null, idempotency_key: c.idempotency_key ?? null },
  };
}

/** Posts the PSP's event to the stack's webhook route in the dialect its fake PSP speaks, signed as that PSP signs. */
export function deliverPspEvent(stack: LocalStack, event: PspEvent) {
  const secrets = localSecrets();
  const stripe = stack.pspDialect === "stripe";
  const body = JSON.stringify(stripe ? stripeEventOf(event) : event);
  const secret = (stripe ? secrets.StripeWebhookSecret : secrets.PspWebhookSecret) as string;
  const signature = signWebhook(secret, body, Math.floor(clock.now() / 1000));
  const header = stripe ? "stripe-signature" : "psp-signature";
  return new ApiClient(stack.apiUrl).send(
    "POST",
    stack.webhookPath,
    { [header]: signature, "content-type": "application/json" },
    body,
  );
}
