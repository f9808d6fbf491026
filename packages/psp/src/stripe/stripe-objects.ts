import type { Charge, Refund, RefundStatus } from "../ledger";

/** The API version the fake answers as: stripe-node 23.2.0's pinned version, which events carry. */
export const STRIPE_API_VERSION = "2026-11-18.endive";

/** The statuses a confirmed PaymentIntent of the fake can have. */
export type IntentStatus = "succeeded" | "requires_payment_method" | "requires_action" | "processing";

/** What the customer must do for an intent in `requires_action`: 3-D Secure through Stripe's SDK. */
export interface StripeNextAction {
  type: "use_stripe_sdk";
  use_stripe_sdk: { type: "three_d_secure_redirect"; stripe_js: string; source: string };
}

/** Stripe's PaymentIntent as the fake answers it. */
export interface StripeIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_received: number;
  currency: string;
  status: IntentStatus;
  next_action: StripeNextAction | null;
  payment_method: string;
  payment_method_types: string[];
  capture_method: "automatic";
  confirmation_method: "automatic";
  metadata: Record<string, string>;
  latest_charge: string | StripeCharge | null;
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
  status: "succeeded" | "failed" | "pending";
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
  code: "card_declined" | "authentication_required";
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
  // A card that needed authentication under `error_on_requires_action` fails with its own code, not a decline.
  const code = c.decline_code === AUTHENTICATION_REQUIRED ? AUTHENTICATION_REQUIRED : "card_declined";
  return {
    type: "card_error",
    code,
    decline_code: c.decline_code ?? "generic_decline",
    message:
      code === "card_declined"
        ? "Your card was declined."
        : "Your card was declined. This transaction requires authentication.",
    charge: chargeIdOf(c),
    payment_method: { id: c.payment_method, object: "payment_method", type: "card" },
    doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, "-")}`,
  };
}

/** The code of a payment that needed the customer's authentication and was told not to wait for it. */
export const AUTHENTICATION_REQUIRED = "authentication_required";

/** A PaymentIntent's status, from its record. */
export function intentStatusOf(c: Charge): IntentStatus {
  if (c.status === "succeeded") return "succeeded";
  if (c.status === "failed") return "requires_payment_method";
  return c.stripe?.waiting ?? "processing";
}

function nextActionOf(c: Charge): StripeNextAction | null {
  if (intentStatusOf(c) !== "requires_action") return null;
  const source = `src_${c.id.slice(3)}`;
  const stripe_js = `https://hooks.stripe.com/3d_secure_2/hosted?payment_intent=${c.id}`;
  return { type: "use_stripe_sdk", use_stripe_sdk: { type: "three_d_secure_redirect", stripe_js, source } };
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
    failure_code: c.status === "failed" ? cardErrorOf(c).code : null,
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
  const status = intentStatusOf(c);
  // An intent waiting for the customer has made no charge yet.
  const charge = status === "requires_action" ? null : chargeIdOf(c);
  return {
    id: c.id,
    object: "payment_intent",
    amount: c.amount,
    amount_received: ok ? c.amount : 0,
    currency: c.currency,
    status,
    next_action: nextActionOf(c),
    payment_method: c.payment_method,
    payment_method_types: ["card"],
    capture_method: "automatic",
    confirmation_method: "automatic",
    metadata: metadataOfRecord(c),
    latest_charge: charge !== null && expand.includes("latest_charge") ? chargeObjectOf(c) : charge,
    last_payment_error: c.status === "failed" ? cardErrorOf(c) : null,
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
