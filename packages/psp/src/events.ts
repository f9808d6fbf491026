import type { Dialect } from "./dialect-name";
import { newId } from "./ids";
import type { Charge, Refund } from "./ledger";
import type { Occurrence, Origin } from "./occurrence";
import { type StripeEvent, stripeEventOf } from "./stripe/stripe-events";

export type { Occurrence, Origin } from "./occurrence";

/** The event types the PSP sends to the webhook endpoint. */
export type PspEventType = "charge.succeeded" | "charge.failed" | "refund.succeeded";

/** A webhook event; its id stays the same across every delivery attempt so receivers can dedupe. */
export interface PspEvent {
  id: string;
  type: PspEventType;
  created: number;
  data: {
    charge: {
      id: string;
      idempotency_key: string;
      reference: string;
      amount: number;
      currency: string;
      decline_code?: string;
    };
    refund?: { id: string; idempotency_key: string };
  };
}

/** A webhook event in either dialect, as an instance sends it. */
export type WebhookEvent = PspEvent | StripeEvent;

function chargeSummary(c: Charge): PspEvent["data"]["charge"] {
  return {
    id: c.id,
    idempotency_key: c.idempotency_key,
    reference: c.reference,
    amount: c.amount,
    currency: c.currency,
    ...(c.decline_code ? { decline_code: c.decline_code } : {}),
  };
}

/** The event for a charge that has just succeeded or been declined. */
export function chargeEvent(charge: Charge, created: number): PspEvent {
  const type = charge.status === "succeeded" ? "charge.succeeded" : "charge.failed";
  return { id: newId("evt"), type, created, data: { charge: chargeSummary(charge) } };
}

/** The event for a refund; `data.charge` is the refunded charge, as the payments webhook looks it up by it. */
export function refundEvent(charge: Charge, refund: Refund, created: number): PspEvent {
  return {
    id: newId("evt"),
    type: "refund.succeeded",
    created,
    data: {
      charge: chargeSummary(charge),
      refund: { id: refund.id, idempotency_key: refund.idempotency_key },
    },
  };
}

/**
 * Writes an occurrence as the instance's dialect says, at once: the event is a snapshot, so a later refund
 * does not change the charge an earlier event carried.
 */
export function eventOf(dialect: Dialect, occ: Occurrence, origin: Origin | null): WebhookEvent {
  if (dialect === "stripe") return stripeEventOf(occ, origin);
  if (occ.kind === "charge") return chargeEvent(occ.charge, occ.charge.created);
  return refundEvent(occ.charge, occ.refund, occ.refund.created);
}

/** Our reference an event names, by which redelivery picks events. */
export function referenceOf(event: WebhookEvent): string | undefined {
  if ("object" in event) return event.data.object.metadata.payment_id;
  return event.data.charge.reference;
}
