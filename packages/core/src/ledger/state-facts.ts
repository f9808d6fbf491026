import { CHARGE_OPEN_STATES, type PaymentState } from "../payment/payment-state";
import { CHARGE_JOURNAL_SK, refundFactOf } from "./journal-and-outbox";
import type { PaymentRow } from "./ledger-items";
import { unsafeNoRefundFailedFact } from "./ledger-test-switches";

/** The sort key of a decline's fact: FAILED moves no money, so it has no journal entry to prove it. */
export const DECLINE_FACT_SK = "FACT#FAILED";

/**
 * An item beside a payment row (same partition key) that proves a final state: the charge's journal entry
 * (SUCCEEDED), a refund attempt's (REFUNDED), its failure's (REFUND_FAILED), or a decline's fact (FAILED). Each is put
 * only if absent, in the move's own transaction, and never changed afterwards, so any Region's copy of it says the same.
 */
export interface StateFact {
  sk: string;
  psp_charge?: string;
  psp_refund?: string;
  decline_code?: string;
  refund_failure_reason?: string;
}

/** Whether an item of a payment's partition is one of its state facts. */
export const isStateFact = (sk: unknown): boolean =>
  sk === CHARGE_JOURNAL_SK || sk === DECLINE_FACT_SK || refundFactOf(sk) !== undefined;

// Why the row is read with its facts (seed Part 9): global tables replicate whole items and the last writer wins,
// so a Region that settles its older copy of a row (PENDING, then SUCCEEDED) after the other Region moved it further
// (REFUNDED, not yet shipped when it failed) makes a later write of an earlier state, and that write wins everywhere.
// The facts cannot be undone that way: they are separate items, written once and only ever final (as the
// notification intents' MARK items are). So a row's state is the furthest of its own and its facts':
// PENDING < UNKNOWN < SUCCEEDED | FAILED < REFUND_PENDING < REFUNDED < REFUND_FAILED within one refund attempt, and a
// later attempt beyond an earlier one. A refund in flight is no fact (a refusal takes it back to SUCCEEDED), and
// SUCCEEDED and FAILED never overrule each other (that is an anomaly for a person).
/** The row moved forward to the furthest state its facts prove; the row itself when it is not behind them. */
export function mergeFacts<R extends MergedFields>(row: R, facts: readonly StateFact[]): R {
  const fact = (sk: string) => facts.find((f) => f.sk === sk);
  const charge = fact(CHARGE_JOURNAL_SK);
  const decline = fact(DECLINE_FACT_SK);
  const refund = refundOutcome(facts);
  const open = CHARGE_OPEN_STATES.includes(row.state);
  // A SUCCEEDED row must name its charge (a refund is made against it), so only an entry that names it settles one.
  const psp_charge = row.psp_charge ?? charge?.psp_charge;
  if (refund && refundBehind(row, refund)) {
    const { state, attempt, item } = refund;
    const psp_refund = item.psp_refund ?? (attempt === row.refund_attempt ? row.psp_refund : undefined);
    const reason = state === "REFUND_FAILED" ? { refund_failure_reason: item.refund_failure_reason } : {};
    return forward(row, state, { psp_charge, psp_refund, refund_attempt: attempt, ...reason });
  }
  if (open && charge?.psp_charge) return forward(row, "SUCCEEDED", { psp_charge });
  if (open && decline) return forward(row, "FAILED", { decline_code: decline.decline_code });
  return row;
}

/** What the merge reads and sets of a row: a whole payment row, or the fields reconciliation reads of one. */
type MergedFields = Pick<PaymentRow, "state" | "psp_charge" | "psp_refund" | "decline_code"> &
  Partial<Pick<PaymentRow, "refund_attempt" | "refund_failure_reason">>;

type RefundOutcome = { state: "REFUNDED" | "REFUND_FAILED"; attempt: number; item: StateFact };

// The refund's outcome as its write-once facts say: the latest attempt's, and within it a failure beats the
// REFUNDED entry it reverses (a refund Stripe answered succeeded and failed later).
function refundOutcome(facts: readonly StateFact[]): RefundOutcome | undefined {
  let best: RefundOutcome | undefined;
  for (const item of facts) {
    const of = refundFactOf(item.sk);
    if (!of || (of.state === "REFUND_FAILED" && unsafeNoRefundFailedFact())) continue;
    const further =
      !best || of.attempt > best.attempt || (of.attempt === best.attempt && of.state === "REFUND_FAILED");
    if (further) best = { ...of, item };
  }
  return best;
}

const REFUND_RANK: Partial<Record<PaymentState, number>> = { REFUNDED: 1, REFUND_FAILED: 2 };

// A row at a later attempt than the facts wins (the facts are an earlier attempt's outcome); at the same attempt the
// further outcome wins. A row that never began a refund is at attempt 0, or 1 when it was refunded all the same (a
// refund made at the PSP directly moves a row with no attempt).
function refundBehind(row: MergedFields, facts: RefundOutcome): boolean {
  const inRefund = row.state.startsWith("REFUND");
  const attempt = row.refund_attempt ?? (inRefund ? 1 : 0);
  if (attempt !== facts.attempt) return attempt < facts.attempt;
  return (REFUND_RANK[row.state] ?? 0) < (REFUND_RANK[facts.state] ?? 0);
}

function forward<R extends MergedFields>(row: R, state: PaymentState, set: Partial<MergedFields>): R {
  const defined = Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined));
  return { ...row, ...defined, state };
}
