/** Intents to put in an account at once, spread evenly over a time range (the PSP's clock), for lists at volume. */
export interface IntentSeed {
  /** The account: the secret key the requests will be made with (as the fake tells accounts apart). */
  account: string;
  count: number;
  fromMs: number;
  toMs: number;
  /** The `metadata.payment_id` of the i-th intent; by default another integration's (`seed_{i}`). */
  reference?: (i: number) => string;
}
