import { newId } from "../ids";
import type { Occurrence, Origin } from "../occurrence";
import {
  chargeObjectOf,
  intentObjectOf,
  STRIPE_API_VERSION,
  type StripeCharge,
  type StripeIntent,
} from "./stripe-objects";

/** The Stripe event types the fake sends. */
export type StripeEventType =
  | "payment_intent.succeeded"
  | "payment_intent.payment_failed"
  | "charge.refunded";

/** A webhook event in Stripe's format; `data.object` is a snapshot taken when the event happened. */
export interface StripeEvent {
  id: string;
  object: "event";
  api_version: string;
  created: number;
  type: StripeEventType;
  data: { object: StripeIntent | StripeCharge };
  livemode: false;
  pending_webhooks: number;
  request: { id: string; idempotency_key: string };
}

/** Writes a charge or refund that has just happened as Stripe would announce it. */
export function stripeEventOf(occ: Occurrence, origin: Origin): StripeEvent {
  const { type, object, created } =
    occ.kind === "refund"
      ? { type: "charge.refunded" as const, object: chargeObjectOf(occ.charge), created: occ.refund.created }
      : {
          type:
            occ.charge.status === "succeeded"
              ? ("payment_intent.succeeded" as const)
              : ("payment_intent.payment_failed" as const),
          object: intentObjectOf(occ.charge),
          created: occ.charge.created,
        };
  return {
    id: newId("evt"),
    object: "event",
    api_version: STRIPE_API_VERSION,
    created,
    type,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: origin.requestId, idempotency_key: origin.idempotencyKey },
  };
}
