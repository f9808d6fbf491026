import { chargeKeyOf } from "../ids/derive-ids";
import type { PaymentRow } from "../ledger/ledger-items";
import type { ChargeLookup, LookupCursor, PspOrigin, PspReply } from "../psp/psp-port";
import type { PspEndpoint, Slot } from "../psp-budget/psp-budget";
import { budgetGate, countPspCall, withinBudget } from "../psp-budget/within-budget";
import type { PaymentDeps } from "./payment-deps";
import {
  unsafeDefiniteRefusalWaits,
  unsafeNotFoundIsDecline,
  unsafeReplayOpenCharge,
  unsafeWideLookupWindow,
} from "./payment-test-switches";
import { pastPspKeyWindow } from "./psp-key-window";
import { attemptWindowOf, recordSend, sendWindowsOf } from "./psp-sends";

export { attemptWindowOf } from "./psp-sends";

/** The decline recorded when the PSP has had no charge under our reference for the whole settle period. */
export const NO_CHARGE_AT_PSP = "no_charge_at_psp";

/**
 * Calls the PSP for a payment's charge with its derived key while the PSP still remembers that key;
 * after its window, or when the key's saved result is an error, looks the charge up by our reference
 * instead (Part 1: never replay an old key, a forgotten key is a new charge). Every call gets only what
 * is left until `untilMs` (our clock), so a lookup after a saved error cannot stretch the request's deadline,
 * and each request goes in its own slot of the PSP budget (a charge's 429 is sent again with the same key while
 * time is left). Each send is recorded on the row before it goes (`psp_sends`), so that a lookup lists only around
 * the sends.
 */
export async function replayCharge(
  deps: PaymentDeps,
  row: PaymentRow,
  untilMs: number,
  call: ReplayCall = { origin: "live" },
): Promise<PspReply> {
  // Accepted and not final (Stripe: `processing`): read by its id, consistent, whatever the key window says.
  if (row.psp_charge_open && !unsafeReplayOpenCharge())
    return readOpen(deps, row.psp_charge_open, untilMs, call);
  if (call.lookupOnly || pastPspKeyWindow(deps, row.created_at)) return lookUp(deps, row, untilMs, call);
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
  const sentAt = deps.clock.now();
  if (!call.sendRecorded && !(await recordSend(deps, row, sentAt)))
    return { kind: "unknown", reason: "the row moved, or another send was recorded, before this send" };
  // Every send goes within a deadline of its record, which is what a lookup lists around (sendWindowsOf).
  const sendUntil = Math.min(untilMs, sentAt + deps.config.deadlineMs);
  const reply = await withinBudget(
    deps.pspBudget,
    deps.clock,
    budgetedOf(deps, "POST /v1/charges", call, sendUntil),
    (t) => deps.psp.charge(key, params, t, call.origin),
  );
  // A replay answers the body saved at creation: a charge it says is still on its way is read by its id at once.
  if (reply.kind === "unknown" && reply.id && call.origin === "resolver" && !unsafeReplayOpenCharge())
    return readOpen(deps, reply.id, untilMs, call);
  if (reply.kind !== "saved-error") return reply;
  return lookUp(deps, row, untilMs, call, reply);
}

// One read by id, in its own slot of the reads' budget.
function readOpen(deps: PaymentDeps, id: string, untilMs: number, call: ReplayCall): Promise<PspReply> {
  return withinBudget(
    deps.pspBudget,
    deps.clock,
    budgetedOf(deps, "GET /v1/charges", { ...call, slot: undefined }, untilMs),
    (t) => deps.psp.readCharge(id, t, call.origin),
  );
}

/** How replayCharge runs: who calls, a slot reserved earlier, lookup only, and whether the send is recorded. */
export interface ReplayCall {
  origin: PspOrigin;
  slot?: Slot;
  lookupOnly?: boolean;
  /** The durable guard just wrote the row with this send recorded (`psp_sends`): no second write. */
  sendRecorded?: boolean;
}

// Looks the charge up by our reference, around the row's recorded sends (a row that crossed a failover or whose
// key was voided may lack the other Region's last sends: the bounded fallback instead), going on from where the
// last lookup stopped, each request in its own budget slot; where it stops unfinished is kept on the row.
async function lookUp(
  deps: PaymentDeps,
  row: PaymentRow,
  untilMs: number,
  call: ReplayCall,
  saved?: SavedError,
): Promise<PspReply> {
  const wide = unsafeWideLookupWindow();
  const windows = call.lookupOnly || wide ? [attemptWindowOf(deps, row)] : sendWindowsOf(deps, row);
  const cursor = wide ? undefined : row.lookup_cursor;
  let stopped = cursor;
  const gated = budgetedOf(deps, "GET /v1/charges", { ...call, slot: undefined }, untilMs);
  const gate = budgetGate(deps.pspBudget, deps.clock, gated);
  const progress = (c: LookupCursor | undefined) => {
    stopped = c;
  };
  const lookup: ChargeLookup = { windows, cursor, gate, progress };
  const reply = await deps.psp.findCharge(row.payment_id, untilMs - deps.clock.now(), call.origin, lookup);
  countPspCall(call.origin, reply);
  if (!wide && JSON.stringify(stopped) !== JSON.stringify(cursor))
    await deps.ledger.keepLookupCursor(row.payment_id, row.state, stopped);
  return judgeLookup(deps, row, reply, saved);
}

function budgetedOf(deps: PaymentDeps, endpoint: PspEndpoint, call: ReplayCall, untilMs: number) {
  return { endpoint, origin: call.origin, untilMs, slot: call.slot, maxWaitMs: maxWaitOf(deps, call.origin) };
}

/** How long a PSP call may wait for a budget slot: a live buyer is waiting, the resolver is not. */
export function maxWaitOf(deps: PaymentDeps, origin: PspOrigin): number {
  return origin === "live" ? deps.config.pspBudgetMaxWaitMs : RESOLVER_SLOT_WAIT_MS;
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
