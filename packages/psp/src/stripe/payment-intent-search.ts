import type { Call, PspContext } from "../context";
import { jsonReply, send } from "../http-io";
import type { Charge } from "../ledger";
import { type FormMap, textOf } from "./form-params";
import { intentsOf } from "./payment-intent-read";
import { invalidParam, missingParam } from "./stripe-errors";
import { limitOf, queryOf } from "./stripe-list";
import { intentObjectOf } from "./stripe-objects";

type Clause = (c: Charge) => boolean;

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

/** `GET /v1/payment_intents/search?query=…`: a lagging index; `psp_search_lag` answers it empty. */
export async function searchIntents(ctx: PspContext, call: Call): Promise<void> {
  const query = queryOf(call);
  const matches = matcherOf(query);
  const limit = limitOf(query);
  const offset = offsetOf(query);
  const delayMs = ctx.opts.takeFault("psp_lookup_delay_ms");
  if (delayMs !== undefined && delayMs > 0) await ctx.sleeper.sleep(delayMs);
  const lagging = ctx.opts.takeFault("psp_search_lag") !== undefined;
  const found = lagging
    ? []
    : intentsOf(ctx, call.account)
        .reverse()
        .filter((c) => indexed(ctx, c) && matches(c));
  const data = found.slice(offset, offset + limit).map((c) => intentObjectOf(c));
  const has_more = offset + limit < found.length;
  const next_page = has_more ? `page_${offset + limit}` : null;
  const url = "/v1/payment_intents/search";
  send(call.res, jsonReply(200, { object: "search_result", data, has_more, next_page, url }));
}
