/**
 * Issue 41, item 4: throttles and headroom. In each Region the API stage throttles every route (the webhooks
 * included) above what the PSP lets the pay path use, each open (webhook) route has a tighter throttle of its own
 * that its function's cap can serve, the async path's functions (relay, worker, resolver) have concurrency of their
 * own, each webhook function is capped, and all that is reserved leaves AWS's unreserved minimum within the default
 * account quota. The figures are AWS's, the PSP's and the load run's, not read from the stacks; the per-route table
 * is read from stacks/api-throttles.ts (re-exported by stacks/api.ts) only to check that the stage carries all of it.
 */
import { API_ROUTE_THROTTLES } from "../../../stacks/api-throttles";
import type { CapturedResource } from "./capture";
import type { Invariant, View } from "./invariants";
import { obj, str } from "./json";

const ROLES = ["primary", "standby"] as const;
/** Lambda's default concurrent executions per Region, and the part AWS keeps unreserved (Lambda quotas page). */
const ACCOUNT_QUOTA = 1_000;
const UNRESERVED_MINIMUM = 100;
/** Stripe's default live-mode rate per account: a throttle below twice it would refuse buyers the PSP could serve. */
const PSP_ACCOUNT_RATE = 100;
/** The load run's 40 payments/s, each settled by one PSP event: what an open route must let through, with room. */
const LOAD_EVENT_RATE = 40;
/** A slow webhook call (a cold start, a retried transaction); the load run's take about 0.1 s. */
const SLOW_WEBHOOK_S = 0.25;
const ASYNC_PATH = ["LedgerStream", "NotifyWorker", "Resolver"];
const WEBHOOKS = ["PspWebhook", "StripeWebhook"];

const reserved = (f: CapturedResource | undefined) => f?.inputs.reservedConcurrentExecutions;

const stagesIn = (v: View, role: (typeof ROLES)[number]) =>
  v.ofType("aws:apigatewayv2/stage:Stage").filter((s) => v.regionOf(s) === v.region(role));

function stageProblems(v: View, role: (typeof ROLES)[number]): string[] {
  const stages = stagesIn(v, role);
  if (stages.length !== 1) return [`${role}: ${stages.length} API stages, expected 1`];
  const settings = obj((stages[0] as CapturedResource).inputs.defaultRouteSettings);
  const rate = Number(settings.throttlingRateLimit);
  const burst = Number(settings.throttlingBurstLimit);
  if (!(rate > 0) || !(burst > 0)) return [`${role}: the API stage does not throttle its routes`];
  const out: string[] = [];
  if (rate < 2 * PSP_ACCOUNT_RATE)
    out.push(`${role}: the API stage throttles at ${rate}/s, under twice the PSP's ${PSP_ACCOUNT_RATE}/s`);
  if (burst < rate) out.push(`${role}: the API stage's burst ${burst} is under its rate ${rate}/s`);
  return out;
}

/** The function a route invokes, through its integration. */
function routeFunction(v: View, route: CapturedResource): CapturedResource | undefined {
  const integration = v
    .ofType("aws:apigatewayv2/integration:Integration")
    .find((i) => route.inputs.target === `integrations/${i.id}`);
  return v.byArn(str(integration?.inputs.integrationUri));
}

/**
 * The stage's per-route settings: every route of API_ROUTE_THROTTLES has its own, each names a route of the stage's
 * API, the stage waits for those routes (API Gateway refuses a setting for a route it does not have yet), and each
 * open route is throttled below the stage, above the load run's event rate, and within what its function's cap can
 * run (rate × a slow call, and a bucket no larger than the cap).
 */
function routeThrottleProblems(v: View, role: (typeof ROLES)[number]): string[] {
  const stages = stagesIn(v, role);
  if (stages.length !== 1) return [];
  const stage = stages[0] as CapturedResource;
  const routes = v
    .ofType("aws:apigatewayv2/route:Route")
    .filter((r) => r.inputs.apiId === stage.inputs.apiId);
  const routeOf = (key: string) => routes.find((r) => r.inputs.routeKey === key);
  const settings = new Map(
    (Array.isArray(stage.inputs.routeSettings) ? stage.inputs.routeSettings : []).map(
      (s) => [String(obj(s).routeKey), obj(s)] as const,
    ),
  );
  const out: string[] = [];
  for (const [key, want] of Object.entries(API_ROUTE_THROTTLES)) {
    const got = settings.get(key);
    if (!got) out.push(`${role}: ${key} has no throttle of its own on the API stage`);
    else if (got.throttlingRateLimit !== want.ratePerS || got.throttlingBurstLimit !== want.burst)
      out.push(
        `${role}: ${key} is throttled at ${got.throttlingRateLimit}/s burst ${got.throttlingBurstLimit}, ` +
          `expected ${want.ratePerS}/s burst ${want.burst}`,
      );
  }
  const waitsFor = new Set(stage.opts.dependsOn ?? []);
  for (const key of settings.keys()) {
    const route = routeOf(key);
    if (!route) {
      out.push(
        `${role}: the API stage sets a throttle for ${key}, not a route of its API (the deploy fails)`,
      );
    } else if (!waitsFor.has(route.name)) {
      out.push(`${role}: the API stage does not wait for the route ${key} (API Gateway refuses its setting)`);
    }
  }
  const stageRate = Number(obj(stage.inputs.defaultRouteSettings).throttlingRateLimit);
  for (const route of routes.filter((r) => r.inputs.authorizationType === "NONE")) {
    const key = String(route.inputs.routeKey);
    const got = settings.get(key);
    if (!got) {
      out.push(`${role}: the open route ${key} has only the stage's throttle`);
      continue;
    }
    const rate = Number(got.throttlingRateLimit);
    const burst = Number(got.throttlingBurstLimit);
    if (!(rate > 0) || !(burst > 0)) out.push(`${role}: the open route ${key} is not throttled`);
    if (rate > stageRate / 2)
      out.push(`${role}: the open route ${key} allows ${rate}/s, not well below the stage's ${stageRate}/s`);
    if (rate < 2 * LOAD_EVENT_RATE)
      out.push(
        `${role}: the open route ${key} allows ${rate}/s, under twice the load run's ${LOAD_EVENT_RATE} events/s`,
      );
    const cap = Number(reserved(routeFunction(v, route)));
    // An uncapped webhook is concurrencyProblems' to report.
    if (!(cap > 0)) continue;
    if (rate * SLOW_WEBHOOK_S > cap)
      out.push(
        `${role}: the open route ${key} at ${rate}/s needs ${rate * SLOW_WEBHOOK_S} concurrent calls ` +
          `of ${SLOW_WEBHOOK_S} s, over its function's cap of ${cap}`,
      );
    if (burst > cap)
      out.push(`${role}: the open route ${key} admits bursts of ${burst}, over its function's cap of ${cap}`);
  }
  return out;
}

function concurrencyProblems(v: View, role: (typeof ROLES)[number]): string[] {
  const out: string[] = [];
  for (const id of ASYNC_PATH) {
    const n = reserved(v.fn(role, id));
    if (typeof n !== "number" || n < 1)
      out.push(
        `${role}: ${id} has no reserved concurrency (a burst on the API can take all of its capacity)`,
      );
  }
  for (const id of WEBHOOKS.filter((w) => v.fn(role, w))) {
    const n = reserved(v.fn(role, id));
    if (typeof n !== "number" || n < 1)
      out.push(`${role}: ${id} is not capped (a flood of events invokes it unbounded)`);
  }
  const total = v.functionsIn(role).reduce((sum, f) => sum + (Number(reserved(f)) || 0), 0);
  if (total > ACCOUNT_QUOTA - UNRESERVED_MINIMUM)
    out.push(
      `${role}: ${total} reserved, over the ${ACCOUNT_QUOTA - UNRESERVED_MINIMUM} a default account quota can reserve`,
    );
  return out;
}

/** Each Region's API throttles at the edge, its open routes tighter, and its async path has concurrency of its own. */
export const throttlesAndHeadroom: Invariant = {
  name: "the API throttles every route, the webhooks within their cap, and the async path has concurrency of its own, within the account quota",
  check: (v) =>
    ROLES.flatMap((role) => [
      ...stageProblems(v, role),
      ...routeThrottleProblems(v, role),
      ...concurrencyProblems(v, role),
    ]),
};
