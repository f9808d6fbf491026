import type Stripe from "stripe";
import { type ChargeParams, PSP_BODY_VERSION } from "./psp-port";
import { unsafeAnyDeployment, unsafeNewestPspBody } from "./psp-test-switches";

/** The body version a payment's requests are built at: the one stamped on it (absent: 1). */
export function bodyVersionOf(stamped: number | undefined): number {
  return unsafeNewestPspBody() ? PSP_BODY_VERSION : (stamped ?? 1);
}

/**
 * The idempotency key sent to Stripe for a derived key: from body version 2, prefixed with the deployment's name
 * when it has one, since Stripe keeps keys per account and two stages on one account derive the same payment ids for
 * the same caller and key. A payment first sent at version 1 keeps its unprefixed key for every replay.
 */
export function stripeKeyOf(
  key: string,
  stamped: number | undefined,
  deployment: string | undefined,
): string {
  return deployment && bodyVersionOf(stamped) >= 2 ? `${deployment}/${key}` : key;
}

/** Our metadata on a Stripe object: our reference, and from version 2 the deployment that made it. */
export function metadataOf(
  reference: string,
  stamped: number | undefined,
  deployment: string | undefined,
): Record<string, string> {
  return deployment && bodyVersionOf(stamped) >= 2
    ? { payment_id: reference, deployment }
    : { payment_id: reference };
}

/**
 * Whether a Stripe object found by our reference is this deployment's: two stages on one account derive the same
 * payment ids, so an object another deployment named is never ours; one that names none is (made before the
 * deployment's name was sent, at body version 1).
 */
export function isOurs(
  metadata: Record<string, string> | null | undefined,
  reference: string,
  deployment: string | undefined,
): boolean {
  if (metadata?.payment_id !== reference) return false;
  return unsafeAnyDeployment() || metadata.deployment === undefined || metadata.deployment === deployment;
}

/** The refund body of a payment at its stamped body version: our reference, and from version 2 the deployment. */
export function refundBodyOf(
  paymentIntent: string,
  reference: string,
  stamped: number | undefined,
  deployment: string | undefined,
): Stripe.RefundCreateParams {
  return { payment_intent: paymentIntent, metadata: metadataOf(reference, stamped, deployment) };
}

/**
 * The create-and-confirm body of a payment at the body version it was first sent with (absent: 1), so that a replay
 * under its key is the same request after a deploy that changed the body (Stripe answers another body under a key
 * with `idempotency_error` for 24 h).
 */
export function createBodyOf(params: ChargeParams, deployment?: string): Stripe.PaymentIntentCreateParams {
  const version = bodyVersionOf(params.bodyVersion);
  const v1: Stripe.PaymentIntentCreateParams = {
    amount: params.amount,
    // Stripe's currency codes are lowercase ISO 4217.
    currency: params.currency.toLowerCase(),
    payment_method: params.payment_method,
    confirm: true,
    // No redirects: the payment method is the buyer's card, and a payment that needs a return URL could only be
    // left waiting (this API version has no `payment_method_types` on create, hence the automatic form).
    automatic_payment_methods: { enabled: true, allow_redirects: "never" },
    metadata: metadataOf(params.reference, params.bodyVersion, deployment),
  };
  // Version 2: a card that needs authentication (3-D Secure) fails the attempt at once (`authentication_required`)
  // instead of leaving a confirmable intent that nobody can complete, since we never hand out its client secret.
  return version >= 2 ? { ...v1, error_on_requires_action: true } : v1;
}
