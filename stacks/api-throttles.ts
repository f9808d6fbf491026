/**
 * The API's throttles, apart from stacks/api.ts so that the offline checks read them without SST's globals: the stage
 * default for every route and the routes with a setting of their own.
 */

/** A steady rate in requests/s and the token bucket's size, as API Gateway takes them. */
export interface ApiThrottle {
  ratePerS: number;
  burst: number;
}

/**
 * The API stage's default throttle, for every route without a setting of its own: four times the PSP account's rate
 * (90/s used of Stripe's 100/s), so that it never refuses a buyer the fair queue could still serve (the load runs go
 * to 1.6x the cap), while a burst beyond it is refused at the edge with 429 instead of invoking a function per
 * request. The pay routes (`POST /payments`, `…/resolve`, `…/cancel`) keep it on purpose: the PSP budget already
 * paces what reaches the PSP and the fair queue answers 503 with Retry-After in tap order, whereas a tighter limit at
 * the edge would refuse buyers in arrival order, before the queue could book them. The reads and the device routes
 * keep it too (behind the JWT authorizer, and no figure to size them by). The routes in API_ROUTE_THROTTLES differ.
 */
export const API_THROTTLE = { ratePerS: 400, burst: 800 } as const satisfies ApiThrottle;

/**
 * A webhook route's throttle. The routes are open (the signature is checked inside the function), so every request
 * that passes the edge costs an invocation. Sized from the load run: 40 payments/s, each settled by one PSP event,
 * is about 40 events/s; 80/s is twice that, so the PSP's redeliveries of events refused during a flood (Stripe retries
 * for up to three days) catch up beside the live ones. At the ~100 ms a webhook call takes (40/s need about 4
 * concurrent calls), 80/s needs 8 of the function's 20 reserved (`reservedConcurrency` in stacks/handlers.ts); it
 * needs all 20 only at 250 ms a call, which is why the rate is not higher. The bucket is the reservation: a clump
 * the edge admits at once can all run at once, and anything beyond it gets 429 at the edge (the PSP redelivers)
 * instead of a Lambda throttle behind it.
 */
const WEBHOOK_THROTTLE = { ratePerS: 80, burst: 20 } as const satisfies ApiThrottle;

/**
 * The routes with a throttle of their own, by route key (each must be a route of the API: API Gateway refuses a stage
 * setting for a route key it does not have). Every other route takes API_THROTTLE.
 */
export const API_ROUTE_THROTTLES: Readonly<Record<string, ApiThrottle>> = {
  "POST /webhooks/psp": WEBHOOK_THROTTLE,
  "POST /webhooks/stripe": WEBHOOK_THROTTLE,
};
