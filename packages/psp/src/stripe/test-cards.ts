/**
 * Stripe's test PaymentMethod shortcuts the fake knows (https://docs.stripe.com/testing). Each use of one makes a
 * new PaymentMethod at Stripe, so a shortcut can be used any number of times.
 */

/** The test payment methods that are declined, with the decline code each gives. */
export const DECLINING_TEST_CARDS: Readonly<Record<string, string>> = {
  pm_card_declined: "generic_decline",
  pm_card_visa_chargeDeclined: "generic_decline",
  pm_card_visa_chargeDeclinedInsufficientFunds: "insufficient_funds",
  pm_card_visa_chargeDeclinedLostCard: "lost_card",
};

/** The 3-D Secure test cards: every on-session payment with one needs the customer to authenticate. */
export const AUTHENTICATION_TEST_CARDS: ReadonlySet<string> = new Set([
  "pm_card_authenticationRequired",
  "pm_card_authenticationRequiredOnSetup",
  "pm_card_threeDSecure2Required",
  "pm_card_threeDSecureRequired",
]);

/** Whether a payment method is one of Stripe's shortcuts (`pm_card_…`), reusable because each use is new. */
export function isTestShortcut(paymentMethod: string): boolean {
  return /^pm_card_[A-Za-z0-9_]+$/.test(paymentMethod);
}
