import { CHARGE_OPEN_STATES, type PaymentState } from "../payment/payment-state";
import { CHARGE_JOURNAL_SK, refundFactOf } from "./journal-and-outbox";
import type { PaymentRow } from "./ledger-items";
import { unsafeNoRefundFailedFact } from "./ledger-test-switches";
import { inFlightFactOf } from "./refund-in-flight-facts";

/** The sort key of a decline's fact: FAILED moves no money, so it has no journal entry to prove it. */
export const DECLINE_FACT_SK = "FACT#FAILED";

/**
 * An item beside a payment row (same partition key) that proves a final state: the charge's journal entry
 * (SUCCEEDED), a refund attempt's (REFUNDED), its failure's (REFUND_FAILED), a decline's fact (FAILED), or a refund
 * attempt's in-flight fact (REFUND_PENDING) or refusal's (back to SUCCEEDED: refund-in-flight-facts.ts). Each is put
 * only if absent, in the move's own transaction, and never changed afterwards, so any Region's copy of it says the same.
 */
export interface StateFact {
  sk: string;
  psp_charge?: string;
  psp_refund?: string;
  decline_code?: string;
  refund_failure_reason?: string;
  at?: number;
}

/** Whether an item of a payment's partition is one of its state facts. */
export const isStateFact = (sk: unknown): boolean =>
  sk === CHARGE_JOURNAL_SK ||
  sk === DECLINE_FACT_SK ||
  refundFactOf(sk) !== undefined ||
  inFlightFactOf(sk) !== undefined;

// Why the row is read with its facts (seed Part 9): global tables replicate whole items and the last writer wins,
// so a Region that settles its older copy of a row (PENDING, then SUCCEEDED) after the other Region moved it further
// (REFUNDED, not yet shipped when it failed) makes a later write of an earlier state, and that write wins everywhere.
// The facts cannot be undone that way: they are separate items, written once and only ever final (as the
// notification intents' MARK items are). So a row's state is the furthest of its own and its facts':
// PENDING < UNKNOWN < SUCCEEDED | FAILED < REFUND_PENDING < REFUNDED | refused < REFUND_FAILED within one refund
// attempt, and a later attempt beyond an earlier one. A refund in flight is a fact too (issue 40): written with the
// move that starts its attempt, it moves a row that lost that write (the other Region settling its older PENDING
// copy to SUCCEEDED) back into REFUND_PENDING, so that the refund the buyer was promised is still sent; its
// refusal's fact ends the attempt, or the pending fact would drag the row forward for ever. SUCCEEDED and FAILED
// never overrule each other (that is an anomaly for a person).
/** The row moved forward to the furthest state its facts prove; the row itself when it is not behind them. */
export function mergeFacts<R extends MergedFields>(row: R, facts: readonly StateFact[]): R {
  const fact = (sk: string) => facts.find((f) => f.sk === sk);
  const charge = fact(CHARGE_JOURNAL_SK);
  const decline = fact(DECLINE_FACT_SK);
  const refund = refundOutcome(facts);
  const open = CHARGE_OPEN_STATES.includes(row.state);
  // A SUCCEEDED row must name its charge (a refund is made against it), so only an entry that names it settles one.
  const psp_charge = row.psp_charge ?? charge?.psp_charge ?? refund?.item.psp_charge;
  const namesCharge =
    psp_charge !== undefined || refund?.state === "REFUNDED" || refund?.state === "REFUND_FAILED";
  if (refund && refundBehind(row, refund) && namesCharge) return refundForward(row, refund, psp_charge);
  if (open && charge?.psp_charge) return forward(row, "SUCCEEDED", { psp_charge });
  if (open && decline) return forward(row, "FAILED", { decline_code: decline.decline_code });
  return row;
}

/** What the merge reads and sets of a row: a whole payment row, or the fields reconciliation reads of one. */
type MergedFields = Pick<PaymentRow, "state" | "psp_charge" | "psp_refund" | "decline_code"> &
  Partial<Pick<PaymentRow, "refund_attempt" | "refund_failure_reason" | "refund_started_at">>;

type RefundStep = {
  state: "REFUND_PENDING" | "SUCCEEDED" | "REFUNDED" | "REFUND_FAILED";
  attempt: number;
  item: StateFact;
};

/** The number of the next refund attempt: one past the furthest attempt the row or any of its facts names. */
export function nextRefundAttempt(
  row: Partial<Pick<PaymentRow, "refund_attempt">>,
  facts: readonly StateFact[] = [],
): number {
  const attempts = facts.map((f) => refundStepOf(f)?.attempt ?? 0);
  return Math.max(row.refund_attempt ?? 0, ...attempts) + 1;
}

// A fact's step in a refund attempt: in flight, refused (back to SUCCEEDED), refunded, or failed.
function refundStepOf(item: StateFact): Omit<RefundStep, "item"> | undefined {
  const inFlight = inFlightFactOf(item.sk);
  if (inFlight)
    return {
      state: inFlight.state === "REFUND_PENDING" ? "REFUND_PENDING" : "SUCCEEDED",
      attempt: inFlight.attempt,
    };
  const of = refundFactOf(item.sk);
  if (!of || (of.state === "REFUND_FAILED" && unsafeNoRefundFailedFact())) return undefined;
  return of;
}

// The refund's furthest step as its write-once facts say: the latest attempt's, and within it an outcome beats the
// in-flight fact, and a failure beats the REFUNDED entry it reverses (a refund Stripe answered succeeded and failed
// later).
function refundOutcome(facts: readonly StateFact[]): RefundStep | undefined {
  let best: RefundStep | undefined;
  for (const item of facts) {
    const of = refundStepOf(item);
    if (!of) continue;
    const further =
      !best ||
      of.attempt > best.attempt ||
      (of.attempt === best.attempt && STEP_RANK[of.state] > STEP_RANK[best.state]);
    if (further) best = { ...of, item };
  }
  return best;
}

// How far within one attempt a row is, and a fact's step. A row in flight is not behind its attempt's in-flight fact,
// and a row back at SUCCEEDED (ranked 0) is not behind it either: that is the refusal whose fact is on its way.
const REFUND_RANK: Partial<Record<PaymentState, number>> = { REFUNDED: 1, REFUND_FAILED: 2 };
const STEP_RANK: Record<RefundStep["state"], number> = {
  REFUND_PENDING: 0,
  SUCCEEDED: 1,
  REFUNDED: 1,
  REFUND_FAILED: 2,
};

// A row moved to a fact's step of a refund attempt; a step of another attempt than the row's forgets the row's
// refund and its failure (they were the other attempt's).
function refundForward<R extends MergedFields>(row: R, step: RefundStep, psp_charge: string | undefined): R {
  const { state, attempt, item } = step;
  const same = attempt === row.refund_attempt;
  const base: R = same ? row : { ...row, psp_refund: undefined, refund_failure_reason: undefined };
  const psp_refund = item.psp_refund ?? base.psp_refund;
  const reason = state === "REFUND_FAILED" ? { refund_failure_reason: item.refund_failure_reason } : {};
  const started = state === "REFUND_PENDING" && !same ? { refund_started_at: item.at } : {};
  return forward(base, state, { psp_charge, psp_refund, refund_attempt: attempt, ...reason, ...started });
}

// A row at a later attempt than the facts wins (the facts are an earlier attempt's outcome); at the same attempt the
// further outcome wins. A row that never began a refund is at attempt 0, or 1 when it was refunded all the same (a
// refund made at the PSP directly moves a row with no attempt).
function refundBehind(row: MergedFields, facts: RefundStep): boolean {
  const inRefund = row.state.startsWith("REFUND");
  const attempt = row.refund_attempt ?? (inRefund ? 1 : 0);
  if (attempt !== facts.attempt) return attempt < facts.attempt;
  return (REFUND_RANK[row.state] ?? 0) < STEP_RANK[facts.state];
}

function forward<R extends MergedFields>(row: R, state: PaymentState, set: Partial<MergedFields>): R {
  const defined = Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined));
  return { ...row, ...defined, state };
}
