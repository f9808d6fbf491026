import { UsageError } from "./usage-error";

/** Stripe's caps, which the fake PSP keeps unless told otherwise (requests per sliding second). */
export const STRIPE_LIMITS = { accountPerS: 100, endpointPerS: 25 };
/** Our budget's defaults in packages/core's config (PSP_RATE_PER_S, PSP_ENDPOINT_RATE_PER_S, RESOLVER_RATE_PER_S). */
export const DEFAULT_BUDGET = { accountPerS: 90, endpointPerS: 22, resolverPerS: 10 };

/** Our share of the PSP's rate, as the started stack's environment sets it. */
export interface Budget {
  accountPerS: number;
  endpointPerS: number;
  resolverPerS: number;
}

/** The fake PSP's limits and our budget for `--scale k`: Stripe's caps divided by k. */
export interface ScaledCaps {
  pspAccountLimit: number;
  pspEndpointLimit: number;
  budget: Budget;
}

/**
 * Stripe's caps divided by k, with our budget leaving at least one request a sliding second of headroom on each
 * limit: the PSP counts whole requests, so a budget of 4.4 against 5 lets 5 through in a second when one send
 * leaves late, and that fifth is a 429. At k = 5: limits 20:5, budget 16/s account, 4/s endpoint, 2/s resolver.
 */
export function scaledCaps(k: number): ScaledCaps {
  const pspAccountLimit = STRIPE_LIMITS.accountPerS / k;
  const pspEndpointLimit = STRIPE_LIMITS.endpointPerS / k;
  const endpointPerS = Math.min(DEFAULT_BUDGET.endpointPerS / k, Math.ceil(pspEndpointLimit) - 1);
  // The account budget keeps Stripe's 4:1 of account to endpoint, below the account limit with the same headroom.
  const accountPerS = Math.min(
    DEFAULT_BUDGET.accountPerS / k,
    (STRIPE_LIMITS.accountPerS / STRIPE_LIMITS.endpointPerS) * endpointPerS,
    Math.ceil(pspAccountLimit) - 1,
  );
  const resolverPerS = Math.min(DEFAULT_BUDGET.resolverPerS / k, endpointPerS);
  return { pspAccountLimit, pspEndpointLimit, budget: { accountPerS, endpointPerS, resolverPerS } };
}

/** The largest --scale that still leaves an endpoint budget above zero with a request of headroom. */
export const MAX_SCALE = 12;

/**
 * Refuses an endpoint budget whose whole requests a second reach the PSP's endpoint limit: without one request of
 * headroom, a send that leaves late puts a sixth (of five) into the PSP's sliding second, and the PSP answers 429.
 */
export function checkHeadroom(endpointBudgetPerS: number, endpointLimit: number): void {
  if (Math.ceil(endpointBudgetPerS) >= endpointLimit)
    throw new UsageError(
      `PSP_ENDPOINT_RATE_PER_S=${endpointBudgetPerS} leaves no headroom under the fake PSP's endpoint limit of ` +
        `${endpointLimit}/s: ceil(budget) must be at most ${Math.ceil(endpointLimit) - 1}, or a late send is a 429; ` +
        "lower PSP_ENDPOINT_RATE_PER_S, raise --psp-limit, or use --scale <k>",
    );
}

/** Our endpoint budget as the environment sets it (packages/core's default when unset). */
export function endpointBudgetFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.PSP_ENDPOINT_RATE_PER_S;
  const n = raw === undefined || raw === "" ? DEFAULT_BUDGET.endpointPerS : Number(raw);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`PSP_ENDPOINT_RATE_PER_S=${raw} must be a positive number`);
  return n;
}
