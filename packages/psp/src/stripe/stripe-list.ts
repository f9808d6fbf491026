import type { Call, PspContext } from "../context";
import { jsonReply, send } from "../http-io";
import { type FormMap, nestForm, textOf } from "./form-params";
import { invalidParam } from "./stripe-errors";

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;

/** The query of a GET, nested like a form (`created[gte]`, `expand[0]`). */
export function queryOf(call: Call): FormMap {
  return nestForm(call.url.searchParams.entries());
}

/** Stripe's `limit`: 1 to 100, 10 when absent. */
export function limitOf(query: FormMap): number {
  const raw = textOf(query, "limit");
  if (raw === undefined) return DEFAULT_LIMIT;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > MAX_LIMIT) {
    throw invalidParam(
      "parameter_invalid_integer",
      "limit",
      `limit must be an integer from 1 to ${MAX_LIMIT}`,
    );
  }
  return n;
}

function unixParam(raw: string, param: string): number {
  if (!/^\d+$/.test(raw)) throw invalidParam("parameter_invalid_integer", param, `Invalid integer: ${raw}`);
  return Number(raw);
}

/** Stripe's `created` filter: an exact time, or any of `gt`, `gte`, `lt`, `lte` (unix seconds). */
export function createdFilter(query: FormMap): (created: number) => boolean {
  const created = query.created;
  if (created === undefined) return () => true;
  if (typeof created === "string") {
    const at = unixParam(created, "created");
    return (c) => c === at;
  }
  const bound = (op: string): number | undefined => {
    const raw = Array.isArray(created) ? undefined : created[op];
    return typeof raw === "string" ? unixParam(raw, `created[${op}]`) : undefined;
  };
  const [gt, gte, lt, lte] = [bound("gt"), bound("gte"), bound("lt"), bound("lte")];
  return (c) =>
    (gt === undefined || c > gt) &&
    (gte === undefined || c >= gte) &&
    (lt === undefined || c < lt) &&
    (lte === undefined || c <= lte);
}

/**
 * Answers a Stripe list: newest first by `created` (ties newest-made first, as the ledger keeps insertion order),
 * `limit` items after the cursor `starting_after`, and `has_more`. Read-after-write: what the ledger holds is listed
 * at once, and the `psp_search_lag` fault never touches a list. Each page takes `listPageMs` (Stripe's own page time,
 * for a bench), and `psp_lookup_delay_ms` holds the answer back, as on the generic one.
 */
export async function sendStripeList<T extends { id: string; created: number }>(
  ctx: PspContext,
  call: Call,
  records: T[],
  url: string,
  present: (record: T) => unknown,
): Promise<void> {
  const query = queryOf(call);
  const limit = limitOf(query);
  const keep = createdFilter(query);
  await pageTime(ctx);
  const newest = newestFirst(ctx, `${call.account} ${url}`, records).filter((r) => keep(r.created));
  const listed = newest.slice(startOf(records, newest, textOf(query, "starting_after")));
  const data = listed.slice(0, limit).map(present);
  send(call.res, jsonReply(200, { object: "list", data, has_more: listed.length > limit, url }));
}

// The last ordering of each list per PSP instance, reused while the list holds the same records (same count, same
// newest record): the pages of a lookup in an account of 50,000 intents a day do not each sort the whole account.
const orderings = new WeakMap<PspContext, Map<string, { tag: string; newest: unknown[] }>>();

function newestFirst<T extends { id: string; created: number }>(
  ctx: PspContext,
  list: string,
  records: T[],
): T[] {
  const tag = `${records.length} ${records[records.length - 1]?.id ?? ""}`;
  const mine = orderings.get(ctx) ?? new Map<string, { tag: string; newest: unknown[] }>();
  orderings.set(ctx, mine);
  const kept = mine.get(list);
  if (kept?.tag === tag) return kept.newest as T[];
  // Newest made first among equal `created` (the records are oldest first), then by `created`: a stable sort.
  const newest = [...records].reverse().sort((a, b) => b.created - a.created);
  mine.set(list, { tag, newest });
  return newest;
}

/** What a page of a list or search costs before its answer: `listPageMs`, and the `psp_lookup_delay_ms` fault. */
export async function pageTime(ctx: PspContext): Promise<void> {
  const delayMs = (ctx.opts.takeFault("psp_lookup_delay_ms") ?? 0) + ctx.opts.listPageMs;
  if (delayMs > 0) await ctx.sleeper.sleep(delayMs);
}

// Where a page starts in the listed order: after the cursor object. One outside the filter (Stripe accepts any
// object of the list's type) starts after its place by `created`; one that does not exist is a 400, as at Stripe.
function startOf<T extends { id: string; created: number }>(all: T[], newest: T[], after?: string): number {
  if (after === undefined) return 0;
  const at = newest.findIndex((r) => r.id === after);
  if (at >= 0) return at + 1;
  const cursor = all.find((r) => r.id === after);
  if (!cursor) throw invalidParam("resource_missing", "starting_after", `No such object: '${after}'`);
  const later = newest.findIndex((r) => r.created < cursor.created);
  return later < 0 ? newest.length : later;
}
