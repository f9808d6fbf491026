import { chargeKeyOf } from "../ids/derive-ids";
import type { PaymentRow } from "../ledger/ledger-items";
import type { PspReply } from "../psp/psp-port";
import type { PaymentDeps } from "./payment-deps";
import { unsafeNotFoundIsDecline } from "./payment-test-switches";
import { pastPspKeyWindow } from "./psp-key-window";

/** The decline recorded when the PSP has had no charge under our reference for the whole settle period. */
export const NO_CHARGE_AT_PSP = "no_charge_at_psp";

/**
 * Calls the PSP for a payment's charge with its derived key while the PSP still remembers that key;
 * after its window, or when the key's saved result is an error, looks the charge up by our reference
 * instead (Part 1: never replay an old key, a forgotten key is a new charge). Every call gets only what
 * is left until `untilMs` (our clock), so a lookup after a saved error cannot stretch the request's deadline.
 */
export async function replayCharge(deps: PaymentDeps, row: PaymentRow, untilMs: number): Promise<PspReply> {
  const left = () => untilMs - deps.clock.now();
  if (pastPspKeyWindow(deps, row.created_at)) {
    return judgeLookup(deps, row, await deps.psp.findCharge(row.payment_id, left()));
  }
  const { amount, currency, payment_method } = row;
  const params = { amount, currency, payment_method, reference: row.payment_id };
  const reply = await deps.psp.charge(chargeKeyOf(row.payment_id), params, left());
  if (reply.kind !== "saved-error") return reply;
  return judgeLookup(deps, row, await deps.psp.findCharge(row.payment_id, left()));
}

// "Not found by our reference" may be a search index that lags behind the charge: it becomes a decline
// only once the settle period has passed both since the charge attempt and since the first lookup that
// found nothing (a payment looked up first after the key window gets the same grace), and stays not-found
// until then.
function judgeLookup(deps: PaymentDeps, row: PaymentRow, reply: PspReply): PspReply {
  if (reply.kind !== "not-found") return reply;
  if (unsafeNotFoundIsDecline()) return { kind: "declined", declineCode: NO_CHARGE_AT_PSP };
  const now = deps.clock.now();
  const settleMs = deps.config.pspNotFoundSettleS * 1000;
  const since = Math.max(row.created_at, row.first_not_found_at ?? now);
  return now - since >= settleMs ? { kind: "declined", declineCode: NO_CHARGE_AT_PSP } : reply;
}
