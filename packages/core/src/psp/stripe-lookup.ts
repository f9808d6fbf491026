import type Stripe from "stripe";
import type { Clock } from "../clock/clock";
import type { PspOrigin, PspReply } from "./psp-port";
import { unsafeStripeSearchOnly } from "./psp-test-switches";
import { requestOptions, timed } from "./stripe-client";
import { intentReply, lookupErrorReply, refundReply } from "./stripe-replies";

/** When a charge was attempted, by our clock: the window a lookup lists PaymentIntents in. */
export interface AttemptWindow {
  fromMs: number;
  toMs: number;
}

/** One lookup's means: the client, the key of this call, its origin, our clock, and when its time ends (wall time). */
export interface LookupCall {
  stripe: Stripe;
  apiKey: string | undefined;
  origin: PspOrigin | undefined;
  /** The clock attempt windows are on, the one the domain stamps rows with. */
  clock: Clock;
  untilMs: number;
}

/**
 * The window listed when the caller names no attempt time (a payment this Region has no row for): the last two
 * hours. Safe because a lookup is search ∪ list: search carries no time filter and finds any intent it has
 * indexed, and Stripe documents its lag as under a minute, up to an hour during an outage; the list covers the
 * part search may not have indexed yet, read-after-write consistent. A charge is missed only if search lags by
 * more than this window.
 */
export const DEFAULT_LOOKBACK_MS = 2 * 60 * 60 * 1000;

/** The margin added on each side of a window: the offset between our clock and Stripe's, and its whole seconds. */
const CLOCK_MARGIN_MS = 60_000;

/** The most list pages one lookup reads; past it the answer is unknown, never "not found". */
const MAX_PAGES = 200;

type Listed<T> = { items: T[] } | { reply: PspReply };

/**
 * Looks a charge up by our reference (`metadata.payment_id`). Search first, as a fast path that only a succeeded
 * intent ends; any other outcome falls through to the read-after-write consistent list of the PaymentIntents
 * created in the attempt's window, every page, since search is eventually consistent and its miss proves nothing.
 */
export async function findChargeByReference(
  call: LookupCall,
  reference: string,
  around?: AttemptWindow,
): Promise<PspReply> {
  const searched = await searchByReference(call, reference);
  const hit = "items" in searched ? searched.items.find((pi) => pi.status === "succeeded") : undefined;
  if (hit) return retrieveFresh(call, hit.id);
  if (unsafeStripeSearchOnly()) return "items" in searched ? judge(call, searched.items) : searched.reply;
  const listed = await listInWindow(call, reference, around);
  return "items" in listed ? judge(call, listed.items) : listed.reply;
}

/**
 * Lists a PaymentIntent's refunds, every page, as they are now: a succeeded one is done; else one still pending is
 * pending; else the newest that failed is a failure (never dropped: a refund that fails after it was accepted must
 * reach the payment); nothing listed is not found.
 */
export async function findRefundOf(call: LookupCall, paymentIntent: string): Promise<PspReply> {
  const listed = await everyPage<Stripe.Refund>(call, (after, o) =>
    call.stripe.refunds.list({ payment_intent: paymentIntent, limit: 100, ...after }, o),
  );
  if (!("items" in listed)) return listed.reply;
  // Stripe lists the newest first.
  const replies = listed.items.map((r) => refundReply(r, "read"));
  return (
    replies.find((r) => r.kind === "done") ??
    replies.find((r) => r.kind === "refund-pending") ??
    replies.find((r) => r.kind === "refund-failed") ?? { kind: "not-found" }
  );
}

// Search answers what its index holds; a failure of it is no answer, and the list is asked instead. It gets half
// of the lookup's time, so that a slow search leaves the list the time to answer.
async function searchByReference(call: LookupCall, reference: string): Promise<Listed<Stripe.PaymentIntent>> {
  const query = `metadata['payment_id']:'${reference.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  const share = unsafeStripeSearchOnly() ? 1 : 0.5;
  try {
    const res = await timed((call.untilMs - Date.now()) * share, (t) =>
      call.stripe.paymentIntents.search({ query, limit: 100 }, opts(call, t)),
    );
    if (res.kind === "unknown") return { reply: res };
    return { items: res.value.data.filter((pi) => pi.metadata?.payment_id === reference) };
  } catch (err) {
    return { reply: lookupErrorReply(err) };
  }
}

async function listInWindow(
  call: LookupCall,
  reference: string,
  around?: AttemptWindow,
): Promise<Listed<Stripe.PaymentIntent>> {
  const now = call.clock.now();
  const fromMs = (around?.fromMs ?? now - DEFAULT_LOOKBACK_MS) - CLOCK_MARGIN_MS;
  // Nothing is created in the future: a window that reaches past now is listed up to now (and the margin).
  const toMs = Math.min(around?.toMs ?? now, now) + CLOCK_MARGIN_MS;
  const created = { gte: Math.floor(fromMs / 1000), lte: Math.ceil(toMs / 1000) };
  const listed = await everyPage<Stripe.PaymentIntent>(call, (after, o) =>
    call.stripe.paymentIntents.list({ created, limit: 100, ...after }, o),
  );
  if (!("items" in listed)) return listed;
  return { items: listed.items.filter((pi) => pi.metadata?.payment_id === reference) };
}

// Reads every page (`has_more`, `starting_after`) within the lookup's time: a match on a later page must not read
// as "not found", and a lookup that cannot finish answers unknown.
async function everyPage<T extends { id: string }>(
  call: LookupCall,
  page: (after: { starting_after?: string }, o: Stripe.RequestOptions) => Promise<Stripe.ApiList<T>>,
): Promise<Listed<T>> {
  const items: T[] = [];
  for (let n = 0, after: { starting_after?: string } = {}; n < MAX_PAGES; n++) {
    try {
      const res = await timed(call.untilMs - Date.now(), (t) => page(after, opts(call, t)));
      if (res.kind === "unknown") return { reply: res };
      items.push(...res.value.data);
      const last = res.value.data[res.value.data.length - 1];
      if (!res.value.has_more || !last) return { items };
      after = { starting_after: last.id };
    } catch (err) {
      return { reply: lookupErrorReply(err) };
    }
  }
  return { reply: { kind: "unknown", reason: `the lookup ran past ${MAX_PAGES} pages` } };
}

// A succeeded intent wins over a failed one; one still on its way is unknown (it may yet charge); a decline
// answers only when nothing else carries the reference.
async function judge(call: LookupCall, intents: Stripe.PaymentIntent[]): Promise<PspReply> {
  const succeeded = intents.find((pi) => pi.status === "succeeded");
  if (succeeded) return retrieveFresh(call, succeeded.id);
  const replies = intents.map(intentReply);
  return (
    replies.find((r) => r.kind === "unknown") ??
    replies.find((r) => r.kind === "declined") ?? { kind: "not-found" }
  );
}

// Read by id, which is consistent (a search hit may be stale), with its latest charge, whose `refunded` says
// whether the payment has been refunded since (at Stripe directly, or by another attempt).
async function retrieveFresh(call: LookupCall, id: string): Promise<PspReply> {
  try {
    const res = await timed(call.untilMs - Date.now(), (t) =>
      call.stripe.paymentIntents.retrieve(id, { expand: ["latest_charge"] }, opts(call, t)),
    );
    return res.kind === "unknown" ? res : intentReply(res.value);
  } catch (err) {
    return lookupErrorReply(err);
  }
}

const opts = (call: LookupCall, t: number) => requestOptions(call.apiKey, t, call.origin);
