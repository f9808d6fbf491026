import { crashPoint } from "../faults/crash-point";
import { refundKeyOf } from "../ids/derive-ids";
import type { PaymentRow } from "../ledger/ledger-items";
import { nextRefundAttempt } from "../ledger/state-facts";
import type { PspReply } from "../psp/psp-port";
import { withinBudget } from "../psp-budget/within-budget";
import type { PaymentDeps } from "./payment-deps";
import { Refusal } from "./payment-errors";
import { REFUND_STATES } from "./payment-state";
import type { Rendered } from "./render-payment";
import { settleRefund } from "./settle-refund";

/** How long a refund call may take inside one API request. */
const REFUND_TIMEOUT_MS = 4_000;

/**
 * Refunds a succeeded payment with its derived refund key. The intent (REFUND_PENDING, with its attempt
 * number) is recorded before the call, so every retry, here or in the resolver, is the same refund (Part 4);
 * an attempt the PSP definitely refused leaves the payment SUCCEEDED, one it failed later REFUND_FAILED, and the
 * next one gets a new suffix.
 */
export async function cancelPayment(deps: PaymentDeps, caller: string, paymentId: string): Promise<Rendered> {
  let row = await deps.ledger.getPayment(paymentId);
  if (!row || row.caller !== caller) throw new Refusal("not-found", `no payment ${paymentId}`);
  // A refund the PSP failed later is tried again, as the next attempt with its own key.
  if (row.state === "SUCCEEDED" || row.state === "REFUND_FAILED") row = await startAttempt(deps, row);
  if (row.state === "REFUNDED") return refunded(row);
  if (!REFUND_STATES.includes(row.state)) {
    throw new Refusal("invalid-state", `only a SUCCEEDED payment can be cancelled; this one is ${row.state}`);
  }
  const reply = await liveRefund(deps, row);
  await crashPoint("cancel.after_psp");
  const settled = await settleRefund(deps, row, reply);
  if (settled.state === "REFUNDED") return refunded(settled);
  if (settled.state === "SUCCEEDED" && reply.kind === "refused") {
    throw new Refusal("refund-refused", `the PSP refused the refund: ${reply.reason} (${reply.code})`);
  }
  if (settled.state === "REFUND_FAILED") {
    const why = `the PSP failed the refund after accepting it: ${settled.refund_failure_reason ?? "no reason given"}`;
    throw new Refusal("refund-refused", `${why}; the payment is REFUND_FAILED, and a cancel tries again`);
  }
  return pending(settled);
}

// The buyer's refund is a live call: it queues for a slot of the PSP budget ahead of the resolver's replays. A refund
// the PSP accepted and holds pending is read by its id: a replayed POST answers the body saved at its creation.
function liveRefund(deps: PaymentDeps, row: PaymentRow): Promise<PspReply> {
  const untilMs = deps.clock.now() + REFUND_TIMEOUT_MS;
  const charge = row.psp_charge ?? "";
  const read = row.psp_refund;
  const endpoint = read ? "GET /v1/refunds" : "POST /v1/refunds";
  return withinBudget(
    deps.pspBudget,
    deps.clock,
    { endpoint, origin: "live", untilMs, maxWaitMs: deps.config.pspBudgetMaxWaitMs },
    (t) =>
      read
        ? deps.psp.readRefund(read, t, "live", charge)
        : deps.psp.refund(
            refundKeyOf(row.payment_id, row.refund_attempt),
            charge,
            row.payment_id,
            t,
            "live",
            row.body_version,
          ),
  );
}

// A new attempt forgets the last one's refund and its failure: its refund is another, read by its own id. Its number
// is one past any attempt the row or its facts name (the row read has its facts folded in): a row's own counter may
// be the other Region's older copy, and reusing an attempt's key would replay that attempt's refusal.
async function startAttempt(deps: PaymentDeps, row: PaymentRow): Promise<PaymentRow> {
  const now = deps.clock.now();
  const set = {
    refund_attempt: nextRefundAttempt(row),
    refund_started_at: now,
    psp_refund: undefined,
    refund_failure_reason: undefined,
  };
  const moved = await deps.ledger.move({
    paymentId: row.payment_id,
    to: "REFUND_PENDING",
    set,
    now,
    expected: row,
  });
  return moved.row ?? row;
}

const refunded = (row: PaymentRow): Rendered => ({
  status: 200,
  body: { payment_id: row.payment_id, state: "REFUNDED" },
  headers: {},
});

const pending = (row: PaymentRow): Rendered => ({
  status: 202,
  body: { payment_id: row.payment_id, state: "REFUND_PENDING" },
  headers: { "retry-after": "2" },
});
