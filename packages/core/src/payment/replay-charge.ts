import { chargeKeyOf } from "../ids/derive-ids";
import type { PaymentRow } from "../ledger/ledger-items";
import type { PspReply } from "../psp/psp-port";
import type { PaymentDeps } from "./payment-deps";

/** Margin before the end of the PSP's key window: past it, a replay could reach a PSP that forgot the key. */
const KEY_WINDOW_MARGIN_MS = 60 * 60 * 1000;

/**
 * Calls the PSP for a payment's charge with its derived key while the PSP still remembers that key;
 * after its window, or when the key's saved result is an error, looks the charge up by our reference
 * instead (Part 1: never replay an old key, a forgotten key is a new charge).
 */
export async function replayCharge(deps: PaymentDeps, row: PaymentRow, timeoutMs: number): Promise<PspReply> {
  const age = deps.clock.now() - row.created_at;
  if (age > deps.config.pspKeyWindowS * 1000 - KEY_WINDOW_MARGIN_MS) {
    return deps.psp.findCharge(row.payment_id, timeoutMs);
  }
  const { amount, currency, payment_method } = row;
  const params = { amount, currency, payment_method, reference: row.payment_id };
  const reply = await deps.psp.charge(chargeKeyOf(row.payment_id), params, timeoutMs);
  return reply.kind === "saved-error" ? deps.psp.findCharge(row.payment_id, timeoutMs) : reply;
}
