import type { RegionFunctions } from "./functions";
import { handlers } from "./handlers";
import type { RegionContext } from "./region-context";

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

/** The name of the JWT authorizer on each Region's API. */
export const JWT_AUTHORIZER = "Jwt";

/**
 * Creates one Region's HTTP API: every contract route, each behind the JWT authorizer except the PSP webhook
 * (the PSP signs its calls with an HMAC), and the stage's throttles (API_THROTTLE for every route, API_ROUTE_THROTTLES
 * for some). The local-only `/_local/*` routes are never defined here.
 */
export function createApi(ctx: RegionContext, functions: RegionFunctions): sst.aws.ApiGatewayV2 {
  // SST creates the `$default` stage in the constructor, before any route, and API Gateway refuses a route setting
  // for a route key it does not have yet ("Unable to find Route by key"). So the stage waits for the routes: its
  // dependsOn is a promise settled once every route below is declared. Nothing SST creates for a route reads the
  // stage (a route needs the API, its integration and the authorizer), so the wait makes no cycle.
  let routesDeclared: (routes: $util.Input<$util.Resource>[]) => void = () => undefined;
  const routes = new Promise<$util.Input<$util.Resource>[]>((resolve) => {
    routesDeclared = resolve;
  });
  // Clients are phones and the PSP, not browsers: no CORS.
  const api = new sst.aws.ApiGatewayV2(
    `${ctx.prefix}Api`,
    {
      cors: false,
      transform: {
        stage: (args, opts) => {
          args.defaultRouteSettings = {
            throttlingRateLimit: API_THROTTLE.ratePerS,
            throttlingBurstLimit: API_THROTTLE.burst,
          };
          args.routeSettings = Object.entries(API_ROUTE_THROTTLES).map(([routeKey, t]) => ({
            routeKey,
            throttlingRateLimit: t.ratePerS,
            throttlingBurstLimit: t.burst,
          }));
          opts.dependsOn = routes;
        },
      },
    },
    { provider: ctx.provider },
  );
  const jwt = api.addAuthorizer({
    name: JWT_AUTHORIZER,
    jwt: { issuer: ctx.config.jwt.issuer, audiences: [ctx.config.jwt.audience] },
  });
  const declared = new Map<string, $util.Input<$util.Resource>>();
  for (const spec of handlers) {
    if (spec.trigger.kind !== "http") continue;
    const fn = functions[spec.id];
    if (!fn) throw new Error(`${ctx.prefix}: no function for ${spec.id}`);
    const route = api.route(spec.trigger.route, fn.arn, {
      auth: spec.trigger.auth === "jwt" ? { jwt: { authorizer: jwt.id } } : false,
    });
    declared.set(spec.trigger.route, route.nodes.route);
  }
  // Fail here, not in UpdateStage halfway through a deploy, when a throttled route is renamed or removed.
  const unknown = Object.keys(API_ROUTE_THROTTLES).filter((key) => !declared.has(key));
  if (unknown.length > 0)
    throw new Error(`${ctx.prefix}: API_ROUTE_THROTTLES names routes the API lacks: ${unknown.join(", ")}`);
  routesDeclared([...declared.values()]);
  return api;
}
