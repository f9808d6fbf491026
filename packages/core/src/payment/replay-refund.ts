import { refundKeyOf } from "../ids/derive-ids";
import type { PaymentRow } from "../ledger/ledger-items";
import type { PspReply } from "../psp/psp-port";
import type { PaymentDeps } from "./payment-deps";
import { pastPspKeyWindow } from "./psp-key-window";

/**
 * Replays a refund attempt with its derived key while the PSP still remembers the key; after the window,
 * or when the key's saved result is an error, looks the refund up by the charge instead, since a replayed
 * forgotten key would be a new refund request (Part 1).
 */
export async function replayRefund(deps: PaymentDeps, row: PaymentRow, untilMs: number): Promise<PspReply> {
  const left = () => untilMs - deps.clock.now();
  const charge = row.psp_charge ?? "";
  if (pastPspKeyWindow(deps, row.refund_started_at ?? row.updated_at))
    return deps.psp.findRefund(charge, left());
  const reply = await deps.psp.refund(
    refundKeyOf(row.payment_id, row.refund_attempt),
    charge,
    row.payment_id,
    left(),
  );
  return reply.kind === "saved-error" ? deps.psp.findRefund(charge, left()) : reply;
}
