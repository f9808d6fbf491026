import { refundKeyOf } from "../ids/derive-ids";
import type { PaymentRow } from "../ledger/ledger-items";
import type { PspOrigin, PspReply } from "../psp/psp-port";
import type { PspEndpoint } from "../psp-budget/psp-budget";
import { withinBudget } from "../psp-budget/within-budget";
import type { PaymentDeps } from "./payment-deps";
import { pastPspKeyWindow } from "./psp-key-window";
import { maxWaitOf } from "./replay-charge";

/**
 * Settles a refund attempt: one the PSP accepted (its id on the row) is read by its id; otherwise the attempt is
 * replayed with its derived key while the PSP still remembers the key; after the window,
 * or when the key's saved result is an error, looks the refund up by the charge instead, since a replayed
 * forgotten key would be a new refund request (Part 1).
 */
export async function replayRefund(
  deps: PaymentDeps,
  row: PaymentRow,
  untilMs: number,
  origin: PspOrigin = "resolver",
): Promise<PspReply> {
  const budgeted = (endpoint: PspEndpoint, send: (t: number) => Promise<PspReply>) =>
    withinBudget(
      deps.pspBudget,
      deps.clock,
      { endpoint, origin, untilMs, maxWaitMs: maxWaitOf(deps, origin) },
      send,
    );
  const charge = row.psp_charge ?? "";
  // Accepted and not final: read by its id, since a replayed POST answers the body Stripe saved at its creation.
  const read = row.psp_refund;
  if (read) return budgeted("GET /v1/refunds", (t) => deps.psp.readRefund(read, t, origin, charge));
  const lookup = () => budgeted("GET /v1/refunds", (t) => deps.psp.findRefund(charge, t, origin));
  if (pastPspKeyWindow(deps, row.refund_started_at ?? row.updated_at)) return lookup();
  const key = refundKeyOf(row.payment_id, row.refund_attempt);
  const reply = await budgeted("POST /v1/refunds", (t) =>
    deps.psp.refund(key, charge, row.payment_id, t, origin, row.body_version),
  );
  return reply.kind === "saved-error" ? lookup() : reply;
}
