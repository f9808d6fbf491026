import type { Charge } from "../ledger";
import { chargeObjectOf, type StripeCharge } from "./stripe-charge-objects";
import {
  cardErrorOf,
  chargeIdOf,
  type IntentStatus,
  intentStatusOf,
  metadataOfRecord,
  nullsOf,
  paymentMethodOf,
  type StripeCardErrorObject,
} from "./stripe-record";

export {
  chargeObjectOf,
  refundObjectOf,
  type StripeCharge,
  type StripeRefund,
} from "./stripe-charge-objects";
export {
  AUTHENTICATION_REQUIRED,
  cardErrorOf,
  chargeIdOf,
  type IntentStatus,
  intentStatusOf,
  metadataOfRecord,
  paymentMethodOf,
  type StripeCardErrorObject,
} from "./stripe-record";

/** The API version the fake answers as: stripe-node 23.2.0's pinned version, which events carry. */
export const STRIPE_API_VERSION = "2026-11-18.endive";

/** What the customer must do for an intent in `requires_action`: 3-D Secure through Stripe's SDK. */
export interface StripeNextAction {
  type: "use_stripe_sdk";
  use_stripe_sdk: { type: "three_d_secure_redirect"; stripe_js: string; source: string };
}

// The fields of Stripe's published PaymentIntent fixture that the fake never sets (no Connect, customer's shipping,
// cancellation or review).
const NULL_INTENT_FIELDS = [
  "application",
  "application_fee_amount",
  "automatic_payment_methods",
  "canceled_at",
  "cancellation_reason",
  "customer_account",
  "description",
  "excluded_payment_method_types",
  "managed_payments",
  "on_behalf_of",
  "payment_method_configuration_details",
  "receipt_email",
  "review",
  "setup_future_usage",
  "shipping",
  "source",
  "statement_descriptor",
  "statement_descriptor_suffix",
  "transfer_data",
  "transfer_group",
] as const;

/** Stripe's PaymentIntent as the fake answers it. */
export interface StripeIntent extends Record<(typeof NULL_INTENT_FIELDS)[number], null> {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_capturable: 0;
  amount_details: { tip: Record<string, never> };
  amount_received: number;
  client_secret: string;
  customer: string | null;
  payment_method_options: { card: { request_three_d_secure: "automatic" } };
  processing: null;
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

function nextActionOf(c: Charge): StripeNextAction | null {
  if (intentStatusOf(c) !== "requires_action") return null;
  const source = `src_${c.id.slice(3)}`;
  const stripe_js = `https://hooks.stripe.com/3d_secure_2/hosted?payment_intent=${c.id}`;
  return { type: "use_stripe_sdk", use_stripe_sdk: { type: "three_d_secure_redirect", stripe_js, source } };
}

/** The PaymentIntent object of a record; `expand` lists what to inline (only `latest_charge` is known). */
export function intentObjectOf(c: Charge, expand: string[] = []): StripeIntent {
  const ok = c.status === "succeeded";
  const status = intentStatusOf(c);
  // An intent waiting for the customer has made no charge yet.
  const charge = status === "requires_action" ? null : chargeIdOf(c);
  return {
    ...nullsOf(NULL_INTENT_FIELDS),
    id: c.id,
    object: "payment_intent",
    amount: c.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: ok ? c.amount : 0,
    client_secret: `${c.id}_secret_fake`,
    customer: c.stripe?.customer ?? null,
    payment_method_options: { card: { request_three_d_secure: "automatic" } },
    processing: null,
    currency: c.currency,
    status,
    next_action: nextActionOf(c),
    payment_method: paymentMethodOf(c),
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
