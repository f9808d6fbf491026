import type { Charge } from "../ledger";

/** The statuses a confirmed PaymentIntent of the fake can have. */
export type IntentStatus = "succeeded" | "requires_payment_method" | "requires_action" | "processing";

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

/** The PaymentMethod id a record shows: the one made for its use of a test shortcut, or the client's own. */
export function paymentMethodOf(c: Charge): string {
  return c.stripe?.paymentMethodId ?? c.payment_method;
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
    payment_method: { id: paymentMethodOf(c), object: "payment_method", type: "card" },
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

/** An object whose every named field is null: the fields of Stripe's objects the fake never sets. */
export function nullsOf<const K extends readonly string[]>(names: K): Record<K[number], null> {
  return Object.fromEntries(names.map((n) => [n, null])) as Record<K[number], null>;
}
