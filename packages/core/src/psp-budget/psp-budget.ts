import type { PspOrigin } from "../psp/psp-port";

/**
 * The PSP's endpoints, each with its own rate limit (Stripe: 25 requests/s per endpoint, 100/s per account), and
 * search, which Stripe limits further (20 read requests/s) and also counts against the basic limits.
 */
export type PspEndpoint =
  | "POST /v1/charges"
  | "GET /v1/charges"
  | "POST /v1/refunds"
  | "GET /v1/refunds"
  | typeof SEARCH_ENDPOINT;

/** Search's slots: its own cap first, then a slot of the reads' share (`GET /v1/charges`), as Stripe counts it. */
export const SEARCH_ENDPOINT = "GET /v1/charges/search" as const;

/**
 * Our cap on search, under Stripe's 20 read requests/s for the Search API (docs.stripe.com/rate-limits), with the
 * same 10 % of headroom as the other caps.
 */
export const SEARCH_RATE_PER_S = 18;

/** The endpoints that share the account's cap; search takes its slots from the reads' share. */
export const PSP_ENDPOINTS: readonly PspEndpoint[] = [
  "POST /v1/charges",
  "GET /v1/charges",
  "POST /v1/refunds",
  "GET /v1/refunds",
];

/**
 * A reserved moment to send one PSP request (real time, ms) and the endpoint's spacing between slots, or how
 * long until one could be had.
 */
export type Slot =
  | { granted: true; atMs: number; spacingMs?: number }
  | { granted: false; retryAfterMs: number };

/** Our share of the PSP's rate limits, held across every concurrent invocation. */
export interface PspBudget {
  /**
   * Reserves the next slot on an endpoint no later than `maxWaitMs` from now. Live payments queue for the
   * next free slot; the resolver only takes a slot no live request is waiting for, within its own cap.
   */
  reserve(endpoint: PspEndpoint, origin: PspOrigin, maxWaitMs: number): Promise<Slot>;
}

/** The caps, in requests per second, as configured (PSP_RATE_PER_S, PSP_ENDPOINT_RATE_PER_S, RESOLVER_RATE_PER_S). */
export interface BudgetRates {
  accountPerS: number;
  endpointPerS: number;
  resolverPerS: number;
}

/**
 * The rate each endpoint may use. Every endpoint gets the same static share, so that the account's cap holds
 * without a second shared counter: four endpoints at `accountPerS / 4` can never add up past it.
 */
export function endpointRateOf(rates: BudgetRates): number {
  return Math.min(rates.endpointPerS, rates.accountPerS / PSP_ENDPOINTS.length);
}

/** The rate search may use: its own cap, and never more than the reads' share it also takes a slot of. */
export function searchRateOf(rates: BudgetRates): number {
  return Math.min(SEARCH_RATE_PER_S, endpointRateOf(rates));
}
