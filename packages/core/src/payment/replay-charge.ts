import { chargeKeyOf } from "../ids/derive-ids";
import type { PaymentRow } from "../ledger/ledger-items";
import type { PspOrigin, PspReply } from "../psp/psp-port";
import type { PspEndpoint, Slot } from "../psp-budget/psp-budget";
import { withinBudget } from "../psp-budget/within-budget";
import type { PaymentDeps } from "./payment-deps";
import { unsafeDefiniteRefusalWaits, unsafeNotFoundIsDecline } from "./payment-test-switches";
import { pastPspKeyWindow } from "./psp-key-window";

/** The decline recorded when the PSP has had no charge under our reference for the whole settle period. */
export const NO_CHARGE_AT_PSP = "no_charge_at_psp";

/**
 * Calls the PSP for a payment's charge with its derived key while the PSP still remembers that key;
 * after its window, or when the key's saved result is an error, looks the charge up by our reference
 * instead (Part 1: never replay an old key, a forgotten key is a new charge). Every call gets only what
 * is left until `untilMs` (our clock), so a lookup after a saved error cannot stretch the request's deadline,
 * and each goes in a slot of the PSP budget (a 429 is sent again with the same key while time is left).
 */
export async function replayCharge(
  deps: PaymentDeps,
  row: PaymentRow,
  untilMs: number,
  call: { origin: PspOrigin; slot?: Slot; lookupOnly?: boolean } = { origin: "live" },
): Promise<PspReply> {
  const budgeted = (endpoint: PspEndpoint, slot: Slot | undefined, send: (t: number) => Promise<PspReply>) =>
    withinBudget(
      deps.pspBudget,
      deps.clock,
      { endpoint, origin: call.origin, untilMs, slot, maxWaitMs: maxWaitOf(deps, call.origin) },
      send,
    );
  const around = attemptWindowOf(deps, row);
  const lookup = (slot?: Slot) =>
    budgeted("GET /v1/charges", slot, (t) => deps.psp.findCharge(row.payment_id, t, call.origin, around));
  if (call.lookupOnly || pastPspKeyWindow(deps, row.created_at))
    return judgeLookup(deps, row, await lookup());
  const { amount, currency, payment_method } = row;
  // The body the payment was first sent with: a replay under its key must be the same request (absent: version 1).
  const params = {
    amount,
    currency,
    payment_method,
    reference: row.payment_id,
    bodyVersion: row.body_version ?? 1,
  };
  const key = chargeKeyOf(row.payment_id);
  const reply = await budgeted("POST /v1/charges", call.slot, (t) =>
    deps.psp.charge(key, params, t, call.origin),
  );
  if (reply.kind !== "saved-error") return reply;
  return judgeLookup(deps, row, await lookup(), reply);
}

/** How long a PSP call may wait for a budget slot: a live buyer is waiting, the resolver is not. */
export function maxWaitOf(deps: PaymentDeps, origin: PspOrigin): number {
  return origin === "live" ? deps.config.pspBudgetMaxWaitMs : RESOLVER_SLOT_WAIT_MS;
}

/**
 * When a payment's charge can have been sent, for a PSP that lists charges by creation time (Stripe): the row is
 * written before the first send (the durable guard), its derived key is sent only until the PSP's key window has
 * passed (pastPspKeyWindow), and each send lasts at most a deadline. The deadline before creation is slack for
 * clock offsets; the adapter adds its own margin for the PSP's clock.
 */
export function attemptWindowOf(deps: PaymentDeps, row: PaymentRow): { fromMs: number; toMs: number } {
  const { deadlineMs, pspKeyWindowS } = deps.config;
  return { fromMs: row.created_at - deadlineMs, toMs: row.created_at + pspKeyWindowS * 1000 + deadlineMs };
}

/** The resolver waits this long for a slot before it ends its pass as rate-limited (the next pass goes on). */
const RESOLVER_SLOT_WAIT_MS = 5_000;

// "Not found by our reference" may be a search index that lags behind the charge: it becomes a decline
// only once the settle period has passed both since the charge attempt and since the first lookup that
// found nothing (a payment looked up first after the key window gets the same grace), and stays not-found
// until then. Two saved errors change the period: a definite refusal (a 400: the PSP refused the request itself,
// and its lookup is complete) settles at once; a saved or final 5xx, whose outcome the PSP may still be finishing,
// waits hours (`pspSaved5xxSettleS`), and the nightly reconcile confirms it.
function judgeLookup(deps: PaymentDeps, row: PaymentRow, reply: PspReply, saved?: SavedError): PspReply {
  if (reply.kind !== "not-found") return reply;
  if (unsafeNotFoundIsDecline()) return { kind: "declined", declineCode: NO_CHARGE_AT_PSP };
  if (saved?.definite && !unsafeDefiniteRefusalWaits())
    return { kind: "declined", declineCode: saved.code ?? `http_${saved.status}` };
  const now = deps.clock.now();
  const settleS =
    saved && saved.status >= 500 ? deps.config.pspSaved5xxSettleS : deps.config.pspNotFoundSettleS;
  const since = Math.max(row.created_at, row.first_not_found_at ?? now);
  return now - since >= settleS * 1000 ? { kind: "declined", declineCode: NO_CHARGE_AT_PSP } : reply;
}

type SavedError = Extract<PspReply, { kind: "saved-error" }>;
