import type { Charge, Refund, RefundStatus } from "../ledger";

/** The API version the fake answers as: stripe-node 23.2.0's pinned version, which events carry. */
export const STRIPE_API_VERSION = "2026-11-18.endive";

/** Stripe's PaymentIntent as the fake answers it. */
export interface StripeIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_received: number;
  currency: string;
  status: "succeeded" | "requires_payment_method";
  payment_method: string;
  payment_method_types: string[];
  capture_method: "automatic";
  confirmation_method: "automatic";
  metadata: Record<string, string>;
  latest_charge: string | StripeCharge;
  last_payment_error: StripeCardErrorObject | null;
  created: number;
  livemode: false;
}

/** Stripe's Charge, the one attempt behind a PaymentIntent. */
export interface StripeCharge {
  id: string;
  object: "charge";
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  currency: string;
  paid: boolean;
  captured: boolean;
  refunded: boolean;
  status: "succeeded" | "failed";
  failure_code: string | null;
  payment_intent: string | null;
  payment_method: string;
  metadata: Record<string, string>;
  created: number;
  livemode: false;
}

/** Stripe's Refund. */
export interface StripeRefund {
  id: string;
  object: "refund";
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string | null;
  status: RefundStatus;
  pending_reason: string | null;
  failure_reason: string | null;
  metadata: Record<string, string>;
  created: number;
}

/** The card error Stripe puts in a declined intent's `last_payment_error` and in the 402's `error`. */
export interface StripeCardErrorObject {
  type: "card_error";
  code: "card_declined";
  decline_code: string;
  message: string;
  charge: string;
  payment_method: { id: string; object: "payment_method"; type: "card" };
  doc_url: string;
}

/** The metadata of a record: a PaymentIntent's own, or our reference for a generic charge. */
export function metadataOfRecord(c: Charge): Record<string, string> {
  return c.stripe?.metadata ?? { payment_id: c.reference };
}

/** The id of the charge behind a record: a PaymentIntent's latest charge, or a generic charge itself. */
export function chargeIdOf(c: Charge): string {
  return c.stripe?.latest_charge ?? c.id;
}

/** The card error of a declined record. */
export function cardErrorOf(c: Charge): StripeCardErrorObject {
  return {
    type: "card_error",
    code: "card_declined",
    decline_code: c.decline_code ?? "generic_decline",
    message: "Your card was declined.",
    charge: chargeIdOf(c),
    payment_method: { id: c.payment_method, object: "payment_method", type: "card" },
    doc_url: "https://stripe.com/docs/error-codes/card-declined",
  };
}

/** The Charge object of a record, as `expand[]=latest_charge` and `charge.refunded` show it. */
export function chargeObjectOf(c: Charge): StripeCharge {
  const ok = c.status === "succeeded";
  return {
    id: chargeIdOf(c),
    object: "charge",
    amount: c.amount,
    amount_captured: ok ? c.amount : 0,
    amount_refunded: c.refunded ? c.amount : 0,
    currency: c.currency,
    paid: ok,
    captured: ok,
    refunded: c.refunded,
    status: c.status,
    failure_code: ok ? null : "card_declined",
    payment_intent: c.stripe ? c.id : null,
    payment_method: c.payment_method,
    metadata: metadataOfRecord(c),
    created: c.created,
    livemode: false,
  };
}

/** The PaymentIntent object of a record; `expand` lists what to inline (only `latest_charge` is known). */
export function intentObjectOf(c: Charge, expand: string[] = []): StripeIntent {
  const ok = c.status === "succeeded";
  return {
    id: c.id,
    object: "payment_intent",
    amount: c.amount,
    amount_received: ok ? c.amount : 0,
    currency: c.currency,
    status: ok ? "succeeded" : "requires_payment_method",
    payment_method: c.payment_method,
    payment_method_types: ["card"],
    capture_method: "automatic",
    confirmation_method: "automatic",
    metadata: metadataOfRecord(c),
    latest_charge: expand.includes("latest_charge") ? chargeObjectOf(c) : chargeIdOf(c),
    last_payment_error: ok ? null : cardErrorOf(c),
    created: c.created,
    livemode: false,
  };
}

/** The Refund object of a refund of `charge`. */
export function refundObjectOf(r: Refund, charge: Charge | undefined): StripeRefund {
  return {
    id: r.id,
    object: "refund",
    amount: r.amount,
    currency: r.currency,
    charge: charge ? chargeIdOf(charge) : r.charge,
    payment_intent: charge?.stripe ? charge.id : null,
    status: r.status,
    pending_reason: r.status === "pending" ? (r.pending_reason ?? "processing") : null,
    failure_reason: r.status === "failed" ? (r.failure_reason ?? "unknown") : null,
    metadata: r.metadata ?? (r.reference === undefined ? {} : { payment_id: r.reference }),
    created: r.created,
  };
}
