import type { PspDialect } from "../config/psp-dialect";
import { Refusal } from "./payment-errors";
import type { PaymentRequest } from "./payment-request";
import { unsafeNoPspMinimum } from "./payment-test-switches";

/**
 * Stripe's minimum charge amount per presentment currency, in minor units (Stripe's API units: JPY has none, HUF is
 * sent with two decimals). Source: Stripe, "Supported currencies", section "Minimum and maximum charge amounts"
 * (https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts), read for issue 39. Stripe states these
 * in the settlement currency; a charge in another currency must convert to at least that much, which no table can
 * know, so only the currencies listed here are checked and Stripe's own `amount_too_small` (a definite 400) answers
 * the rest.
 */
export const STRIPE_MINIMUM_AMOUNTS: Readonly<Record<string, number>> = {
  USD: 50,
  AED: 200,
  AUD: 50,
  BGN: 100,
  BRL: 50,
  CAD: 50,
  CHF: 50,
  CZK: 1500,
  DKK: 250,
  EUR: 50,
  GBP: 30,
  HKD: 400,
  HUF: 17500,
  INR: 50,
  JPY: 50,
  MXN: 1000,
  MYR: 200,
  NOK: 300,
  NZD: 50,
  PLN: 200,
  RON: 200,
  SEK: 300,
  SGD: 50,
  THB: 1000,
};

/**
 * Refuses (422 amount-below-minimum) an amount under the PSP's minimum for its currency before anything is written,
 * on a stage whose PSP has one (Stripe); the contract's own range (1 to 99,999,999) holds for every dialect.
 */
export function checkPspMinimum(request: PaymentRequest, dialect: PspDialect): void {
  if (dialect !== "stripe" || unsafeNoPspMinimum()) return;
  const minimum = STRIPE_MINIMUM_AMOUNTS[request.currency];
  if (minimum === undefined || request.amount >= minimum) return;
  throw new Refusal(
    "amount-below-minimum",
    `amount ${request.amount} is under the PSP's minimum charge for ${request.currency}: at least ${minimum} ` +
      `minor units; nothing was charged or written`,
  );
}
