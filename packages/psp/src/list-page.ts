import type { Call, PspContext } from "./context";
import { jsonReply, RequestError, send } from "./http-io";

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;

function limitOf(url: URL): number {
  const raw = url.searchParams.get("limit");
  if (raw === null) return DEFAULT_LIMIT;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT) {
    throw new RequestError(400, "invalid_request_error", `limit must be an integer from 1 to ${MAX_LIMIT}`, {
      param: "limit",
    });
  }
  return n;
}

/** Stripe's created range, `created[gte]` and `created[lte]` (unix seconds); absent bounds are open. */
function createdRange(url: URL): { gte: number; lte: number } {
  const bound = (name: string, open: number) => {
    const raw = url.searchParams.get(name);
    if (raw === null) return open;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) {
      throw new RequestError(400, "invalid_request_error", `${name} must be a unix time in seconds`, {
        param: name,
      });
    }
    return n;
  };
  return { gte: bound("created[gte]", 0), lte: bound("created[lte]", Number.MAX_SAFE_INTEGER) };
}

/**
 * Answers a list the way Stripe pages one: `limit` items after `starting_after` within the `created` range,
 * and `has_more`. The `psp_search_lag` fault answers an empty page, as a search index that has not caught up,
 * `psp_index_lag_ms` leaves out what is younger than its lag (an index that lags by that much), and
 * `psp_lookup_delay_ms` holds the answer back.
 */
export async function sendList<T extends { id: string; created: number }>(
  ctx: PspContext,
  call: Call,
  items: T[],
  url: string,
): Promise<void> {
  const limit = limitOf(call.url);
  const range = createdRange(call.url);
  const delayMs = ctx.opts.takeFault("psp_lookup_delay_ms");
  if (delayMs !== undefined && delayMs > 0) await ctx.sleeper.sleep(delayMs);
  const inRange = items.filter((i) => i.created >= range.gte && i.created <= range.lte);
  const caughtUp = indexCaughtUp(ctx);
  const listed = ctx.opts.takeFault("psp_search_lag") !== undefined ? [] : inRange.filter(caughtUp);
  const after = call.url.searchParams.get("starting_after");
  const start = after ? listed.findIndex((i) => i.id === after) + 1 : 0;
  const data = listed.slice(start, start + limit);
  const has_more = start + limit < listed.length;
  send(call.res, jsonReply(200, { object: "list", data, has_more, url }));
}

/**
 * The `psp_index_lag_ms` fault: what an index lagging by its value holds, by the PSP's clock (`created` in seconds,
 * as Stripe prints it); everything when it is not armed.
 */
export function indexCaughtUp(ctx: PspContext): (item: { created: number }) => boolean {
  const lagMs = ctx.opts.takeFault("psp_index_lag_ms");
  if (lagMs === undefined) return () => true;
  const horizonMs = ctx.opts.clock.now() - lagMs;
  return (item) => item.created * 1000 <= horizonMs;
}
