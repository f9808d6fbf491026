import { newId } from "../ids";
import type { Charge, Refund } from "../ledger";
import type { Occurrence, Origin } from "../occurrence";
import {
  chargeObjectOf,
  intentObjectOf,
  intentStatusOf,
  refundObjectOf,
  STRIPE_API_VERSION,
  type StripeCharge,
  type StripeIntent,
  type StripeRefund,
} from "./stripe-objects";

/** The Stripe event types the fake sends. */
export type StripeEventType =
  | "payment_intent.succeeded"
  | "payment_intent.payment_failed"
  | "payment_intent.requires_action"
  | "payment_intent.processing"
  | "charge.refunded"
  | "refund.updated"
  | "refund.failed"
  | "charge.refund.updated";

/** A webhook event in Stripe's format; `data.object` is a snapshot taken when the event happened. */
export interface StripeEvent {
  id: string;
  object: "event";
  api_version: string;
  created: number;
  type: StripeEventType;
  data: { object: StripeIntent | StripeCharge | StripeRefund; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  /** The API request behind the event; both null for a change Stripe made by itself (a refund failing later). */
  request: { id: string | null; idempotency_key: string | null };
}

function eventOf(
  type: StripeEventType,
  created: number,
  data: StripeEvent["data"],
  origin: Origin | null,
): StripeEvent {
  return {
    id: newId("evt"),
    object: "event",
    api_version: STRIPE_API_VERSION,
    created,
    type,
    data,
    livemode: false,
    pending_webhooks: 1,
    request: { id: origin?.requestId ?? null, idempotency_key: origin?.idempotencyKey ?? null },
  };
}

/** Writes a charge or refund that has just happened as Stripe would announce it. */
export function stripeEventOf(occ: Occurrence, origin: Origin): StripeEvent {
  if (occ.kind === "refund") {
    return eventOf("charge.refunded", occ.refund.created, { object: chargeObjectOf(occ.charge) }, origin);
  }
  return eventOf(
    intentEventType(occ.charge),
    occ.charge.created,
    { object: intentObjectOf(occ.charge) },
    origin,
  );
}

function intentEventType(charge: Charge): StripeEventType {
  const status = intentStatusOf(charge);
  if (status === "succeeded") return "payment_intent.succeeded";
  if (status === "requires_payment_method") return "payment_intent.payment_failed";
  return `payment_intent.${status}`;
}

/** The event of a `processing` intent that has just succeeded by itself (no request behind it). */
export function intentSucceededEvent(charge: Charge, created: number): StripeEvent {
  const data = { object: intentObjectOf(charge), previous_attributes: { status: "processing" } };
  return eventOf("payment_intent.succeeded", created, data, null);
}

/**
 * The events of a refund whose status has just changed by itself (no request behind it): `refund.updated` and
 * `charge.refund.updated` with the previous status, and `refund.failed` between them when it failed.
 */
export function refundChangeEvents(
  charge: Charge,
  refund: Refund,
  previous: Record<string, unknown>,
  created: number,
): StripeEvent[] {
  const data = { object: refundObjectOf(refund, charge), previous_attributes: previous };
  const types: StripeEventType[] =
    refund.status === "failed"
      ? ["refund.updated", "refund.failed", "charge.refund.updated"]
      : ["refund.updated", "charge.refund.updated"];
  return types.map((type) => eventOf(type, created, structuredClone(data), null));
}
