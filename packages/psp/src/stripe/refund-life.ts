import type { PspContext } from "../context";
import type { Charge, Refund, RefundChange } from "../ledger";
import { refundChangeEvents } from "./stripe-events";

/** Stripe's test payment method whose charge succeeds and whose refunds succeed, then fail some time later. */
export const REFUND_FAIL_CARD = "pm_card_refundFail";
/** Why a refund of that card fails, as Stripe reports it. */
export const REFUND_FAIL_REASON = "expired_or_canceled_card";

/**
 * How a new refund of `charge` starts: `pending` for `insufficient_funds` when `psp_refund_pending` is armed
 * (its value: ms until the balance covers it, 0 for never by itself), else `succeeded`, with the test card's
 * later failure due.
 */
export function refundStartOf(
  ctx: PspContext,
  charge: Charge,
): Pick<Refund, "status" | "pending_reason" | "due"> {
  const shortMs = ctx.opts.takeFault("psp_refund_pending");
  if (shortMs !== undefined) {
    const due: RefundChange | undefined =
      shortMs > 0 ? { atMs: ctx.opts.clock.now() + shortMs, status: "succeeded" } : undefined;
    return { status: "pending", pending_reason: "insufficient_funds", ...(due ? { due } : {}) };
  }
  return { status: "succeeded", ...failureDue(ctx, charge) };
}

function failureDue(ctx: PspContext, charge: Charge): { due?: RefundChange } {
  if (charge.payment_method !== REFUND_FAIL_CARD) return {};
  const atMs = ctx.opts.clock.now() + ctx.opts.refundFailDelayMs;
  return { due: { atMs, status: "failed", failure_reason: REFUND_FAIL_REASON } };
}

/** Moves a refund to its new status, gives a failed refund's amount back to the charge, and announces it. */
function change(ctx: PspContext, account: string, refund: Refund, to: Omit<RefundChange, "atMs">): void {
  const charge = ctx.ledger.getCharge(account, refund.charge);
  const previous: Record<string, unknown> = { status: refund.status };
  if (refund.status === "pending") previous.pending_reason = refund.pending_reason ?? "processing";
  refund.status = to.status;
  delete refund.due;
  delete refund.pending_reason;
  if (to.status === "failed") {
    refund.failure_reason = to.failure_reason ?? "unknown";
    // Stripe returns a failed refund's amount to the charge, which can then be refunded again.
    if (charge) charge.refunded = false;
  } else if (charge) {
    Object.assign(refund, failureDue(ctx, charge));
  }
  if (!charge || ctx.opts.dialect !== "stripe") return;
  const created = Math.floor(ctx.opts.clock.now() / 1000);
  for (const event of refundChangeEvents(charge, refund, previous, created)) ctx.webhooks.send(event);
}

/** Makes every refund change due by the PSP's clock; returns how many refunds changed. */
export function settleDueRefunds(ctx: PspContext): number {
  const now = ctx.opts.clock.now();
  const due = ctx.ledger.allRefunds().filter(({ record }) => record.due && record.due.atMs <= now);
  // Oldest first, so that events leave in the order the changes fell due.
  due.sort((a, b) => (a.record.due?.atMs ?? 0) - (b.record.due?.atMs ?? 0));
  for (const { account, record } of due) {
    if (record.due) change(ctx, account, record, record.due);
  }
  return due.length;
}

/** The account's balance now covers every refund waiting for funds: each succeeds; returns how many. */
export function topUpBalance(ctx: PspContext): number {
  const waiting = ctx.ledger
    .allRefunds()
    .filter(({ record }) => record.status === "pending" && record.pending_reason === "insufficient_funds");
  for (const { account, record } of waiting) change(ctx, account, record, { status: "succeeded" });
  return waiting.length;
}

/** Fails a pending or succeeded refund now, as Stripe may after it accepted it. */
export function failRefund(ctx: PspContext, id: string, failureReason = "unknown"): void {
  const found = ctx.ledger.allRefunds().find(({ record }) => record.id === id);
  if (!found) throw new RangeError(`no refund ${id}`);
  const { account, record } = found;
  if (record.status !== "pending" && record.status !== "succeeded") {
    throw new RangeError(`refund ${id} is ${record.status}; only a pending or succeeded refund can fail`);
  }
  change(ctx, account, record, { status: "failed", failure_reason: failureReason });
}
