// Its own file: the options, the events and the request context all name a dialect, and none of them owns it.
/** The generic dialect of the contract, or Stripe's. */
export type Dialect = "generic" | "stripe";
