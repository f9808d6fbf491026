import { API_ROUTE_THROTTLES, API_THROTTLE } from "./api-throttles";
import type { RegionFunctions } from "./functions";
import { handlers } from "./handlers";
import type { RegionContext } from "./region-context";

export { API_ROUTE_THROTTLES, API_THROTTLE, type ApiThrottle } from "./api-throttles";

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
