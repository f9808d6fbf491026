import type { RegionFunctions } from "./functions";
import { handlers } from "./handlers";
import type { RegionContext } from "./region-context";

/**
 * The API stage's throttle, for every route (the webhooks included): four times the PSP account's rate (90/s used of
 * Stripe's 100/s), so that it never refuses a buyer the fair queue could still serve (the load runs go to 1.6x the cap),
 * while a burst beyond it is refused at the edge with 429 instead of invoking a function per request. A per-route
 * setting would need the routes to exist before the `$default` stage, which SST creates first.
 */
export const API_THROTTLE = { ratePerS: 400, burst: 800 } as const;

/** The name of the JWT authorizer on each Region's API. */
export const JWT_AUTHORIZER = "Jwt";

/**
 * Creates one Region's HTTP API: every contract route, each behind the JWT authorizer except the PSP webhook
 * (the PSP signs its calls with an HMAC). The local-only `/_local/*` routes are never defined here.
 */
export function createApi(ctx: RegionContext, functions: RegionFunctions): sst.aws.ApiGatewayV2 {
  // Clients are phones and the PSP, not browsers: no CORS.
  const api = new sst.aws.ApiGatewayV2(
    `${ctx.prefix}Api`,
    {
      cors: false,
      transform: {
        stage: (args) => {
          args.defaultRouteSettings = {
            throttlingRateLimit: API_THROTTLE.ratePerS,
            throttlingBurstLimit: API_THROTTLE.burst,
          };
        },
      },
    },
    { provider: ctx.provider },
  );
  const jwt = api.addAuthorizer({
    name: JWT_AUTHORIZER,
    jwt: { issuer: ctx.config.jwt.issuer, audiences: [ctx.config.jwt.audience] },
  });
  for (const spec of handlers) {
    if (spec.trigger.kind !== "http") continue;
    const fn = functions[spec.id];
    if (!fn) throw new Error(`${ctx.prefix}: no function for ${spec.id}`);
    api.route(spec.trigger.route, fn.arn, {
      auth: spec.trigger.auth === "jwt" ? { jwt: { authorizer: jwt.id } } : false,
    });
  }
  return api;
}
