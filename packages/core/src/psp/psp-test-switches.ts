/**
 * EO_TEST_UNSAFE_STRIPE_SEARCH_ONLY=1 makes the Stripe adapter look a charge up by Stripe's search alone, without
 * the list that backs a miss: search is eventually consistent, so a charged payment whose intent is not yet
 * indexed reads as not found (the guard-off test of issue 30).
 */
export const unsafeStripeSearchOnly = (): boolean => process.env.EO_TEST_UNSAFE_STRIPE_SEARCH_ONLY === "1";

/**
 * EO_TEST_UNSAFE_NEWEST_PSP_BODY=1 makes the Stripe adapter build every create body at the newest version, whatever
 * version the payment was first sent with: a replay of a payment made before a deploy that changed the body is then
 * another request under the same key (Stripe's `idempotency_error`), as before issue 39.
 */
export const unsafeNewestPspBody = (): boolean => process.env.EO_TEST_UNSAFE_NEWEST_PSP_BODY === "1";

/**
 * EO_TEST_UNSAFE_PENDING_REFUND_IS_DONE=1 reads a refund Stripe holds `pending` (or `requires_action`) as done, as
 * before issue 39: the buyer is told REFUNDED and the merchant debited while the money stays with the merchant.
 */
export const unsafePendingRefundIsDone = (): boolean =>
  process.env.EO_TEST_UNSAFE_PENDING_REFUND_IS_DONE === "1";

/**
 * EO_TEST_UNSAFE_ANY_DEPLOYMENT=1 takes any object found by our reference as ours, whichever deployment named it, as
 * before issue 39: a stage sharing the account with another settles its payment with the other stage's charge.
 */
export const unsafeAnyDeployment = (): boolean => process.env.EO_TEST_UNSAFE_ANY_DEPLOYMENT === "1";
