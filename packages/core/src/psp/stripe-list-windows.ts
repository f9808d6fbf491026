import type Stripe from "stripe";
import type { Clock } from "../clock/clock";
import type { AttemptWindow, LookupCursor, LookupRequest, PspGate, PspOrigin, PspReply } from "./psp-port";
import { isOurs } from "./stripe-bodies";
import { requestOptions, timed } from "./stripe-client";
import { lookupErrorReply } from "./stripe-replies";

/** One lookup's means: the client, the key of this call, its origin, our clock, and when its time ends (wall time). */
export interface LookupCall {
  stripe: Stripe;
  apiKey: string | undefined;
  origin: PspOrigin | undefined;
  /** The clock attempt windows are on, the one the domain stamps rows with. */
  clock: Clock;
  untilMs: number;
  /** Passed before each request (its own PSP budget slot); absent, requests go at once. */
  gate?: PspGate;
  /** The deployment's name (DEPLOYMENT_NAME): an object another deployment made is never ours (isOurs). */
  deployment?: string;
}

/**
 * The margin added on each side of a window: the offset between our clock and Stripe's (both NTP-synced, so
 * seconds; a minute is generous), and Stripe's whole seconds of `created`.
 */
export const CLOCK_MARGIN_MS = 60_000;

/** The most list pages one lookup reads; past it the answer is unknown (never "not found") and the cursor kept. */
export const MAX_PAGES = 200;

export type Listed<T> = { items: T[] } | { reply: PspReply };

/** A window in Stripe's unit, whole seconds, both ends included. */
interface Span {
  gte: number;
  lte: number;
}

/**
 * Lists the PaymentIntents created in each window (the cursor's own first, from where it stopped) and keeps those
 * carrying `reference`. A list that cannot finish tells `progress` where it stands, so that the next lookup goes on
 * from there; one that finishes tells it undefined. A succeeded match ends the list early: it wins whatever follows.
 */
export async function listWindows(
  call: LookupCall,
  reference: string,
  windows: AttemptWindow[],
  cursor: LookupCursor | undefined,
  progress: (c: LookupCursor | undefined) => void,
): Promise<Listed<Stripe.PaymentIntent>> {
  const matched: Stripe.PaymentIntent[] = [];
  const earlier = cursor?.matched ?? [];
  let pages = 0;
  for (const { span, after } of planOf(call, windows, cursor)) {
    let next = after;
    const stop = (reply: PspReply) => {
      const ids = [...earlier, ...matched.map((pi) => pi.id)];
      progress({ fromMs: span.gte * 1000, toMs: span.lte * 1000, after: next ?? "", matched: ids });
      return { reply: pages > 0 ? unfinished(reply) : reply };
    };
    for (;;) {
      if (pages >= MAX_PAGES)
        return stop({
          kind: "unknown",
          reason: `the lookup ran past ${MAX_PAGES} pages; it goes on from there`,
        });
      const page = await gated(call, "list", (o) =>
        call.stripe.paymentIntents.list(
          { created: span, limit: 100, ...(next ? { starting_after: next } : {}) },
          o,
        ),
      );
      pages += 1;
      if ("reply" in page) return stop(page.reply);
      matched.push(...page.value.data.filter((pi) => isOurs(pi.metadata, reference, call.deployment)));
      const last = page.value.data[page.value.data.length - 1];
      if (matched.some((pi) => pi.status === "succeeded")) break;
      if (!page.value.has_more || !last) break;
      next = last.id;
    }
    if (matched.some((pi) => pi.status === "succeeded")) break;
  }
  progress(undefined);
  return withEarlier(call, matched, earlier);
}

// The windows to list, newest first, each widened by the clock margin (overlaps then merged, so no page is read
// twice) and ending no later than now: nothing is created in the future. A cursor's window goes first from where it
// stopped and is cut out of the others, so a window that grew since (its end was now) is listed only for its new part.
function planOf(
  call: LookupCall,
  windows: AttemptWindow[],
  cursor: LookupCursor | undefined,
): Array<{ span: Span; after?: string }> {
  const now = call.clock.now();
  const spans: Span[] = [];
  const widened = windows
    .map((w) => ({
      gte: Math.floor((w.fromMs - CLOCK_MARGIN_MS) / 1000),
      lte: Math.ceil((Math.min(w.toMs, now) + CLOCK_MARGIN_MS) / 1000),
    }))
    .filter((w) => w.gte <= w.lte)
    .sort((x, y) => x.gte - y.gte);
  for (const w of widened) {
    const last = spans[spans.length - 1];
    if (last && w.gte <= last.lte + 1) last.lte = Math.max(last.lte, w.lte);
    else spans.push({ ...w });
  }
  spans.reverse();
  if (!cursor) return spans.map((span) => ({ span }));
  const done = { gte: Math.floor(cursor.fromMs / 1000), lte: Math.ceil(cursor.toMs / 1000) };
  const rest = spans.flatMap((s) => without(s, done)).map((span) => ({ span }));
  return [{ span: done, ...(cursor.after ? { after: cursor.after } : {}) }, ...rest];
}

// A list stopped after some of its pages (by its time or its budget, whose refusal reads "nothing ran") is
// unknown: pages were read, and the next lookup goes on from its cursor.
function unfinished(reply: PspReply): PspReply {
  if (reply.kind !== "rate-limited" || reply.by !== "budget") return reply;
  return {
    kind: "unknown",
    reason: "the list stopped unfinished at its time or budget; it goes on from there",
  };
}

// The parts of `s` outside `cut`: none, one or two spans.
function without(s: Span, cut: Span): Span[] {
  const parts: Span[] = [];
  if (s.lte > cut.lte) parts.push({ gte: Math.max(s.gte, cut.lte + 1), lte: s.lte });
  if (s.gte < cut.gte) parts.push({ gte: s.gte, lte: Math.min(s.lte, cut.gte - 1) });
  return parts;
}

// Intents matched on the pages of an earlier pass are read again by id (each in its own slot): what they are now.
async function withEarlier(
  call: LookupCall,
  matched: Stripe.PaymentIntent[],
  earlier: string[],
): Promise<Listed<Stripe.PaymentIntent>> {
  const items = [...matched];
  for (const id of earlier.filter((e) => !matched.some((pi) => pi.id === e))) {
    const read = await gated(call, "retrieve", (o) => call.stripe.paymentIntents.retrieve(id, {}, o));
    if ("reply" in read) return read;
    items.push(read.value);
  }
  return { items };
}

/** Reads every page of a list (`has_more`, `starting_after`) within the lookup's time, each page through the gate. */
export async function everyPage<T extends { id: string }>(
  call: LookupCall,
  page: (after: { starting_after?: string }, o: Stripe.RequestOptions) => Promise<Stripe.ApiList<T>>,
): Promise<Listed<T>> {
  const items: T[] = [];
  for (let n = 0, after: { starting_after?: string } = {}; n < MAX_PAGES; n++) {
    const res = await gated(call, "list", (o) => page(after, o));
    if ("reply" in res) return res;
    items.push(...res.value.data);
    const last = res.value.data[res.value.data.length - 1];
    if (!res.value.has_more || !last) return { items };
    after = { starting_after: last.id };
  }
  return { reply: { kind: "unknown", reason: `the lookup ran past ${MAX_PAGES} pages` } };
}

/**
 * Sends one request of a lookup once the gate lets it go (its own budget slot), within what is left of the
 * lookup's time (`share` of it); a failure is the reply that ends the lookup.
 */
export async function gated<T>(
  call: LookupCall,
  request: LookupRequest,
  send: (o: Stripe.RequestOptions) => Promise<T>,
  share = 1,
): Promise<{ value: T } | { reply: PspReply }> {
  const refused = await call.gate?.(request);
  if (refused) return { reply: refused };
  try {
    const res = await timed((call.untilMs - Date.now()) * share, (t) =>
      send(requestOptions(call.apiKey, t, call.origin)),
    );
    return res.kind === "unknown" ? { reply: res } : { value: res.value };
  } catch (err) {
    return { reply: lookupErrorReply(err) };
  }
}
