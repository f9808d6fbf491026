/**
 * EO_TEST_UNSAFE_STRIPE_SEARCH_ONLY=1 makes the Stripe adapter look a charge up by Stripe's search alone, without
 * the list that backs a miss: search is eventually consistent, so a charged payment whose intent is not yet
 * indexed reads as not found (the guard-off test of issue 30).
 */
export const unsafeStripeSearchOnly = (): boolean => process.env.EO_TEST_UNSAFE_STRIPE_SEARCH_ONLY === "1";
