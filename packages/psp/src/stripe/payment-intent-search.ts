import type { Call, PspContext } from "../context";
import { sendFor } from "../dialect";
import { errorReply, jsonReply, send } from "../http-io";
import type { Charge } from "../ledger";
import { indexCaughtUp } from "../list-page";
import { createRateLimiter, type RateLimiter, SENT_AT_HEADER, sentAtOf } from "../rate-limiter";
import { originOf } from "../stats";
import { type FormMap, textOf } from "./form-params";
import { intentsOf } from "./payment-intent-read";
import { invalidParam, missingParam } from "./stripe-errors";
import { limitOf, pageTime, queryOf } from "./stripe-list";
import { intentObjectOf } from "./stripe-objects";

type Clause = (c: Charge) => boolean;

const TOO_MANY_SEARCHES = "Too many search requests hit the API too quickly.";

// The part of Stripe's search language the adapter needs: `metadata['k']:'v'` and `status:'v'`, joined by AND.
function clauseOf(text: string): Clause {
  const match = /^(metadata\[(['"])([^'"]+)\2\]|status|currency)\s*:\s*(['"])(.*)\4$/.exec(text.trim());
  if (!match) throw invalidParam("parameter_invalid_string", "query", `Unsupported search clause: ${text}`);
  const [, field, , metaKey, , value] = match;
  if (metaKey !== undefined) return (c) => c.stripe?.metadata[metaKey] === value;
  if (field === "currency") return (c) => c.currency === value;
  return (c) => intentObjectOf(c).status === value;
}

function matcherOf(query: FormMap): Clause {
  const text = textOf(query, "query");
  if (!text) throw missingParam("query");
  const clauses = text.split(/\s+AND\s+/i).map(clauseOf);
  return (c) => clauses.every((clause) => clause(c));
}

// A page token is opaque to the client; here it is only the offset into the result.
function offsetOf(query: FormMap): number {
  const page = textOf(query, "page");
  if (page === undefined) return 0;
  const match = /^page_(\d+)$/.exec(page);
  if (!match) throw invalidParam("parameter_invalid_string", "page", `Invalid page: ${page}`);
  return Number(match[1]);
}

/**
 * Whether the search index has caught up with an intent: Stripe's search is eventually consistent, so an
 * intent is found only `searchLagMs` (by the PSP's clock) after it was made.
 */
function indexed(ctx: PspContext, c: Charge): boolean {
  return ctx.opts.clock.now() - (c.stripe?.createdMs ?? 0) >= ctx.opts.searchLagMs;
}

// Search's own limiter per PSP instance (Stripe's Search API allows 20 read requests/s, on top of the basic
// limits the router applies): kept beside the instance's state, never shared between instances.
const searchLimiters = new WeakMap<PspContext, RateLimiter>();

function searchAdmitted(ctx: PspContext, call: Call): boolean {
  let limiter = searchLimiters.get(ctx);
  if (!limiter) {
    const perS = ctx.opts.searchRatePerS;
    limiter = createRateLimiter({ perAccount: perS, perEndpoint: perS });
    searchLimiters.set(ctx, limiter);
  }
  return limiter.admit(call.account, "search", sentAtOf(call.req.headers[SENT_AT_HEADER]));
}

/**
 * `GET /v1/payment_intents/search?query=…`: a lagging index (`searchLagMs`; `psp_search_lag` answers it empty),
 * under search's own rate limit: over it, Stripe's 429 (`rate_limit`), and nothing is searched.
 */
export async function searchIntents(ctx: PspContext, call: Call): Promise<void> {
  if (!searchAdmitted(ctx, call)) {
    ctx.stats.rateLimited(originOf(call.req.headers["user-agent"]));
    const reply = errorReply(429, "invalid_request_error", TOO_MANY_SEARCHES, { code: "rate_limit" });
    return sendFor(call, { ...reply, headers: { "Retry-After": "1" } });
  }
  const query = queryOf(call);
  const matches = matcherOf(query);
  const limit = limitOf(query);
  const offset = offsetOf(query);
  await pageTime(ctx);
  const lagging = ctx.opts.takeFault("psp_search_lag") !== undefined;
  const caughtUp = indexCaughtUp(ctx);
  const found = lagging
    ? []
    : intentsOf(ctx, call.account)
        .reverse()
        .filter((c) => indexed(ctx, c) && caughtUp(c) && matches(c));
  const data = found.slice(offset, offset + limit).map((c) => intentObjectOf(c));
  const has_more = offset + limit < found.length;
  const next_page = has_more ? `page_${offset + limit}` : null;
  const url = "/v1/payment_intents/search";
  send(call.res, jsonReply(200, { object: "search_result", data, has_more, next_page, url }));
}
