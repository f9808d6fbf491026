// UNSAFE, tests only: each switch removes one guard of the PSP budget, so that a test can show the failure the
// guard prevents (429s at the PSP, live payments pushed out by the resolver, 429 read as an unknown outcome).

/** No shared budget: every PSP request goes at once, whatever the PSP's caps. */
export const unsafeNoPspBudget = (): boolean => process.env.EO_TEST_UNSAFE_NO_PSP_BUDGET === "1";

/** The resolver queues for endpoint slots as live payments do, instead of taking only idle ones. */
export const unsafeResolverQueuesLikeLive = (): boolean =>
  process.env.EO_TEST_UNSAFE_RESOLVER_NO_PRIORITY === "1";

/** A PSP 429 is not retried and reads as an unknown outcome (the behaviour before the budget). */
export const unsafe429IsUnknown = (): boolean => process.env.EO_TEST_UNSAFE_429_IS_UNKNOWN === "1";

/**
 * A whole lookup (its search, every list page and the retrieve) takes one slot, as before issue 39: a lookup that
 * reads many pages sends them as fast as the PSP answers, past the endpoint's and the account's caps (429s).
 */
export const unsafeOneSlotPerLookup = (): boolean => process.env.EO_TEST_UNSAFE_ONE_SLOT_PER_LOOKUP === "1";

/**
 * Sends stamped after now (the clock stepped back) are kept as if recent: the next send waits for them to age,
 * which is the whole step back (issue 42, found by the simulation).
 */
export const unsafeKeepFutureSends = (): boolean => process.env.EO_TEST_UNSAFE_KEEP_FUTURE_SENDS === "1";
