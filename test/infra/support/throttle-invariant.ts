/**
 * Issue 41, item 4: throttles and headroom. In each Region the API stage throttles every route (the webhooks
 * included) above what the PSP lets the pay path use, the async path's functions (relay, worker, resolver) have
 * concurrency of their own, each webhook function is capped, and all that is reserved leaves AWS's unreserved
 * minimum within the default account quota. The figures are AWS's and the PSP's, not read from the stacks.
 */
import type { CapturedResource } from "./capture";
import type { Invariant, View } from "./invariants";
import { obj } from "./json";

const ROLES = ["primary", "standby"] as const;
/** Lambda's default concurrent executions per Region, and the part AWS keeps unreserved (Lambda quotas page). */
const ACCOUNT_QUOTA = 1_000;
const UNRESERVED_MINIMUM = 100;
/** Stripe's default live-mode rate per account: a throttle below twice it would refuse buyers the PSP could serve. */
const PSP_ACCOUNT_RATE = 100;
const ASYNC_PATH = ["LedgerStream", "NotifyWorker", "Resolver"];
const WEBHOOKS = ["PspWebhook", "StripeWebhook"];

const reserved = (f: CapturedResource | undefined) => f?.inputs.reservedConcurrentExecutions;

function stageProblems(v: View, role: (typeof ROLES)[number]): string[] {
  const stages = v.ofType("aws:apigatewayv2/stage:Stage").filter((s) => v.regionOf(s) === v.region(role));
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

/** Each Region's API throttles at the edge, and its async path has concurrency no burst can take. */
export const throttlesAndHeadroom: Invariant = {
  name: "the API throttles every route and the async path has concurrency of its own, within the account quota",
  check: (v) => ROLES.flatMap((role) => [...stageProblems(v, role), ...concurrencyProblems(v, role)]),
};
