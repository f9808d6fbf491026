import type Stripe from "stripe";
import type { AttemptWindow, ChargeLookup, PspReply } from "./psp-port";
import { unsafeStripeSearchOnly } from "./psp-test-switches";
import { isOurs } from "./stripe-bodies";
import { everyPage, gated, type Listed, type LookupCall, listWindows } from "./stripe-list-windows";
import { intentReply, refundReply } from "./stripe-replies";

export type { AttemptWindow } from "./psp-port";
export type { LookupCall } from "./stripe-list-windows";

/**
 * The window listed when the caller names no attempt time (a payment this Region has no row for): the last two
 * hours. Safe because a lookup is search ∪ list: search carries no time filter and finds any intent it has
 * indexed, and Stripe documents its lag as under a minute, up to an hour during an outage; the list covers the
 * part search may not have indexed yet, read-after-write consistent. A charge is missed only if search lags by
 * more than this window.
 */
export const DEFAULT_LOOKBACK_MS = 2 * 60 * 60 * 1000;

/**
 * Looks a charge up by our reference (`metadata.payment_id`). Search first, as a fast path that only a succeeded
 * intent ends; any other outcome falls through to the read-after-write consistent list of the PaymentIntents
 * created in the windows the charge can have been sent in, every page, since search is eventually consistent and
 * its miss proves nothing. Each request passes the lookup's gate (its own budget slot); a list that cannot finish
 * goes on where it stopped the next time (`lookup.cursor`, told through `lookup.progress`).
 */
export async function findChargeByReference(
  call: LookupCall,
  reference: string,
  lookup: ChargeLookup = {},
): Promise<PspReply> {
  const searched = await searchByReference(call, reference);
  const hit = "items" in searched ? searched.items.find((pi) => pi.status === "succeeded") : undefined;
  if (hit) {
    lookup.progress?.(undefined);
    return retrieveFresh(call, hit.id);
  }
  if (unsafeStripeSearchOnly()) return "items" in searched ? judge(call, searched.items) : searched.reply;
  const windows: AttemptWindow[] = lookup.windows?.length
    ? lookup.windows
    : [{ fromMs: call.clock.now() - DEFAULT_LOOKBACK_MS, toMs: call.clock.now() }];
  const listed = await listWindows(call, reference, windows, lookup.cursor, (c) => lookup.progress?.(c));
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

// Search answers what its index holds; a failure of it (its own budget spent, a 429, an error) is no answer, and
// the list is asked instead. It gets half of the lookup's time, so that a slow search leaves the list the time
// to answer.
async function searchByReference(call: LookupCall, reference: string): Promise<Listed<Stripe.PaymentIntent>> {
  const query = `metadata['payment_id']:'${reference.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  const share = unsafeStripeSearchOnly() ? 1 : 0.5;
  const res = await gated(
    call,
    "search",
    (o) => call.stripe.paymentIntents.search({ query, limit: 100 }, o),
    share,
  );
  if ("reply" in res) return res;
  return { items: res.value.data.filter((pi) => isOurs(pi.metadata, reference, call.deployment)) };
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

/**
 * Reads a PaymentIntent by its id (consistent; a search hit or a replayed POST may be stale) with its latest charge,
 * whose `refunded` says whether the payment has been refunded since.
 */
// Read by id, which is consistent (a search hit may be stale), with its latest charge, whose `refunded` says
// whether the payment has been refunded since (at Stripe directly, or by another attempt).
export async function retrieveFresh(call: LookupCall, id: string): Promise<PspReply> {
  const res = await gated(call, "retrieve", (o) =>
    call.stripe.paymentIntents.retrieve(id, { expand: ["latest_charge"] }, o),
  );
  return "reply" in res ? res.reply : intentReply(res.value);
}
