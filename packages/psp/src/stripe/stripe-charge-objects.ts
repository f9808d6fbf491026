import type { Charge, Refund, RefundStatus } from "../ledger";
import { cardErrorOf, chargeIdOf, metadataOfRecord, nullsOf, paymentMethodOf } from "./stripe-record";

// The fields of Stripe's published Charge fixture that the fake never sets (no Connect, customer, dispute or review).
const NULL_CHARGE_FIELDS = [
  "application",
  "application_fee",
  "application_fee_amount",
  "calculated_statement_descriptor",
  "customer",
  "description",
  "failure_balance_transaction",
  "on_behalf_of",
  "receipt_email",
  "receipt_number",
  "review",
  "shipping",
  "source",
  "source_transfer",
  "statement_descriptor",
  "statement_descriptor_suffix",
  "transfer_data",
  "transfer_group",
] as const;

/** Stripe's Charge, the one attempt behind a PaymentIntent. */
export interface StripeCharge extends Record<(typeof NULL_CHARGE_FIELDS)[number], null> {
  id: string;
  object: "charge";
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  balance_transaction: string | null;
  billing_details: { address: Record<string, null>; email: null; name: null; phone: null };
  currency: string;
  disputed: false;
  paid: boolean;
  captured: boolean;
  refunded: boolean;
  refunds: { object: "list"; data: StripeRefund[]; has_more: false; url: string };
  status: "succeeded" | "failed" | "pending";
  failure_code: string | null;
  failure_message: string | null;
  fraud_details: Record<string, never>;
  outcome: Record<string, string | null> | null;
  payment_intent: string | null;
  payment_method: string;
  payment_method_details: { type: "card"; card: Record<string, string | number> };
  receipt_url: string;
  metadata: Record<string, string>;
  created: number;
  livemode: false;
}

// The fields of Stripe's published Refund fixture that the fake never sets.
const NULL_REFUND_FIELDS = [
  "customer",
  "customer_account",
  "reason",
  "receipt_number",
  "source_transfer_reversal",
  "transfer_reversal",
] as const;

/** Stripe's Refund. */
export interface StripeRefund extends Record<(typeof NULL_REFUND_FIELDS)[number], null> {
  id: string;
  object: "refund";
  amount: number;
  balance_transaction: string;
  currency: string;
  charge: string;
  destination_details: { type: "card"; card: { type: "refund"; reference_status: string } };
  failure_balance_transaction: string | null;
  payment_intent: string | null;
  payment_method: string | null;
  status: RefundStatus;
  pending_reason: string | null;
  failure_reason: string | null;
  metadata: Record<string, string>;
  created: number;
}

const NO_ADDRESS = nullsOf(["city", "country", "line1", "line2", "postal_code", "state"] as const);

// What the card network said, as Stripe's `outcome` reads for an approval or a decline.
function outcomeOf(c: Charge): StripeCharge["outcome"] {
  if (c.status === "pending") return null;
  const ok = c.status === "succeeded";
  return {
    network_status: ok ? "approved_by_network" : "declined_by_network",
    reason: ok ? null : (c.decline_code ?? "generic_decline"),
    risk_level: "normal",
    seller_message: ok
      ? "Payment complete."
      : "The bank did not return any further details with this decline.",
    type: ok ? "authorized" : "issuer_declined",
  };
}

/** The Charge object of a record, as `expand[]=latest_charge`, `GET /v1/charges/{id}` and `charge.refunded` show it. */
export function chargeObjectOf(c: Charge): StripeCharge {
  const ok = c.status === "succeeded";
  const id = chargeIdOf(c);
  const failed = c.status === "failed";
  return {
    ...nullsOf(NULL_CHARGE_FIELDS),
    id,
    object: "charge",
    amount: c.amount,
    amount_captured: ok ? c.amount : 0,
    amount_refunded: c.refunded ? c.amount : 0,
    balance_transaction: ok ? `txn_${id.slice(3)}` : null,
    billing_details: { address: NO_ADDRESS, email: null, name: null, phone: null },
    currency: c.currency,
    disputed: false,
    paid: ok,
    captured: ok,
    refunded: c.refunded,
    refunds: { object: "list", data: refundsOf(c), has_more: false, url: `/v1/charges/${id}/refunds` },
    status: c.status,
    failure_code: failed ? cardErrorOf(c).code : null,
    failure_message: failed ? cardErrorOf(c).message : null,
    fraud_details: {},
    outcome: outcomeOf(c),
    payment_intent: c.stripe ? c.id : null,
    payment_method: paymentMethodOf(c),
    payment_method_details: {
      type: "card",
      card: { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2034, funding: "credit", country: "US" },
    },
    receipt_url: `https://pay.stripe.com/receipts/payment/fake_${id}`,
    metadata: metadataOfRecord(c),
    created: c.created,
    livemode: false,
  };
}

function refundsOf(c: Charge): StripeRefund[] {
  return [...(c.stripe?.refunds ?? [])].reverse().map((r) => refundObjectOf(r, c));
}

/** The Refund object of a refund of `charge`. */
export function refundObjectOf(r: Refund, charge: Charge | undefined): StripeRefund {
  return {
    ...nullsOf(NULL_REFUND_FIELDS),
    id: r.id,
    object: "refund",
    amount: r.amount,
    balance_transaction: `txn_${r.id.slice(3)}`,
    currency: r.currency,
    charge: charge ? chargeIdOf(charge) : r.charge,
    destination_details: {
      type: "card",
      card: { type: "refund", reference_status: r.status === "succeeded" ? "available" : "pending" },
    },
    // A refund that failed is taken back off the balance by a transaction of its own.
    failure_balance_transaction: r.status === "failed" ? `txn_f${r.id.slice(4)}` : null,
    payment_intent: charge?.stripe ? charge.id : null,
    payment_method: charge?.stripe ? paymentMethodOf(charge) : null,
    status: r.status,
    pending_reason: r.status === "pending" ? (r.pending_reason ?? "processing") : null,
    failure_reason: r.status === "failed" ? (r.failure_reason ?? "unknown") : null,
    metadata: r.metadata ?? (r.reference === undefined ? {} : { payment_id: r.reference }),
    created: r.created,
  };
}
