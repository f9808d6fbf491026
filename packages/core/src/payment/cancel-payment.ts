import { crashPoint } from "../faults/crash-point";
import { refundKeyOf } from "../ids/derive-ids";
import type { PaymentRow } from "../ledger/ledger-items";
import type { PspReply } from "../psp/psp-port";
import { withinBudget } from "../psp-budget/within-budget";
import type { PaymentDeps } from "./payment-deps";
import { Refusal } from "./payment-errors";
import { REFUND_STATES } from "./payment-state";
import type { Rendered } from "./render-payment";

/** How long a refund call may take inside one API request. */
const REFUND_TIMEOUT_MS = 4_000;

/**
 * Refunds a succeeded payment with its derived refund key. The intent (REFUND_PENDING, with its attempt
 * number) is recorded before the call, so every retry, here or in the resolver, is the same refund (Part 4);
 * an attempt the PSP definitely refused leaves the payment SUCCEEDED, and the next one gets a new suffix.
 */
export async function cancelPayment(deps: PaymentDeps, caller: string, paymentId: string): Promise<Rendered> {
  let row = await deps.ledger.getPayment(paymentId);
  if (!row || row.caller !== caller) throw new Refusal("not-found", `no payment ${paymentId}`);
  if (row.state === "SUCCEEDED") row = await startAttempt(deps, row);
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
  return pending(settled);
}

// The buyer's refund is a live call: it queues for a slot of the PSP budget ahead of the resolver's replays.
function liveRefund(deps: PaymentDeps, row: PaymentRow): Promise<PspReply> {
  const key = refundKeyOf(row.payment_id, row.refund_attempt);
  const untilMs = deps.clock.now() + REFUND_TIMEOUT_MS;
  return withinBudget(
    deps.pspBudget,
    deps.clock,
    { endpoint: "POST /v1/refunds", origin: "live", untilMs, maxWaitMs: deps.config.pspBudgetMaxWaitMs },
    (t) => deps.psp.refund(key, row.psp_charge ?? "", row.payment_id, t, "live"),
  );
}

async function startAttempt(deps: PaymentDeps, row: PaymentRow): Promise<PaymentRow> {
  const now = deps.clock.now();
  const set = { refund_attempt: (row.refund_attempt ?? 0) + 1, refund_started_at: now };
  const moved = await deps.ledger.move({
    paymentId: row.payment_id,
    to: "REFUND_PENDING",
    set,
    now,
    expected: row,
  });
  return moved.row ?? row;
}

/**
 * Applies the PSP's answer to a refund attempt: done or already refunded → REFUNDED; a definite refusal
 * → back to SUCCEEDED with the PSP's reason; not run (429, no budget slot) → unchanged, for the resolver;
 * anything else → REFUND_UNKNOWN for the resolver, never a guess.
 */
export async function settleRefund(deps: PaymentDeps, row: PaymentRow, reply: PspReply): Promise<PaymentRow> {
  const now = deps.clock.now();
  const paymentId = row.payment_id;
  if (reply.kind === "rate-limited") return (await deps.ledger.getPayment(paymentId)) ?? row;
  const from = REFUND_STATES;
  const result =
    reply.kind === "done"
      ? await deps.ledger.move({ paymentId, to: "REFUNDED", set: { psp_refund: reply.id }, now, from })
      : reply.kind === "already-refunded"
        ? await deps.ledger.move({ paymentId, to: "REFUNDED", now, from })
        : reply.kind === "refused"
          ? await deps.ledger.move({
              paymentId,
              to: "SUCCEEDED",
              set: { refund_refusal: reply.reason },
              now,
              from,
            })
          : await deps.ledger.move({ paymentId, to: "REFUND_UNKNOWN", now, from: ["REFUND_PENDING"] });
  const after = result.row ?? (await deps.ledger.getPayment(paymentId));
  if (!after) throw new Error(`payment ${paymentId} vanished from the ledger`);
  return after;
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
