import { invalidParam } from "./stripe-errors";

/**
 * The smallest amount Stripe charges per currency, in minor units (a zero-decimal currency's unit is itself), from
 * "Minimum and maximum charge amounts" in https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts. A
 * currency not listed here has no minimum in the fake.
 */
export const MINIMUM_CHARGE_AMOUNTS: Readonly<Record<string, number>> = {
  usd: 50,
  aed: 200,
  aud: 50,
  bgn: 100,
  brl: 50,
  cad: 50,
  chf: 50,
  czk: 1500,
  dkk: 250,
  eur: 50,
  gbp: 30,
  hkd: 400,
  huf: 17500,
  inr: 50,
  jpy: 50,
  mxn: 1000,
  myr: 200,
  nok: 300,
  nzd: 50,
  pln: 200,
  ron: 200,
  sek: 300,
  sgd: 50,
  thb: 1000,
};

const ZERO_DECIMAL = new Set(["jpy"]);

/** Refuses an amount under the currency's minimum with Stripe's `amount_too_small`, before anything runs. */
export function refuseTooSmall(amount: number, currency: string): void {
  const minimum = MINIMUM_CHARGE_AMOUNTS[currency];
  if (minimum === undefined || amount >= minimum) return;
  const shown = ZERO_DECIMAL.has(currency) ? String(minimum) : (minimum / 100).toFixed(2);
  throw invalidParam("amount_too_small", "amount", `Amount must be at least ${shown} ${currency}`);
}
