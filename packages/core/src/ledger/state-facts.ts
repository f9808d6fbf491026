import { CHARGE_OPEN_STATES, type PaymentState } from "../payment/payment-state";
import { CHARGE_JOURNAL_SK, REFUND_JOURNAL_SK } from "./journal-and-outbox";
import type { PaymentRow } from "./ledger-items";

/** The sort key of a decline's fact: FAILED moves no money, so it has no journal entry to prove it. */
export const DECLINE_FACT_SK = "FACT#FAILED";

/**
 * An item beside a payment row (same partition key) that proves a final state: the charge's journal entry
 * (SUCCEEDED), the refund's (REFUNDED), or a decline's fact (FAILED). Each is put only if absent, in the move's own
 * transaction, and never changed afterwards, so any Region's copy of it says the same.
 */
export interface StateFact {
  sk: string;
  psp_charge?: string;
  psp_refund?: string;
  decline_code?: string;
}

/** Whether an item of a payment's partition is one of its state facts. */
export const isStateFact = (sk: unknown): boolean =>
  sk === CHARGE_JOURNAL_SK || sk === REFUND_JOURNAL_SK || sk === DECLINE_FACT_SK;

// Why the row is read with its facts (seed Part 9): global tables replicate whole items and the last writer wins,
// so a Region that settles its older copy of a row (PENDING, then SUCCEEDED) after the other Region moved it further
// (REFUNDED, not yet shipped when it failed) makes a later write of an earlier state, and that write wins everywhere.
// The facts cannot be undone that way: they are separate items, written once and only ever final (as the
// notification intents' MARK items are). So a row's state is the furthest of its own and its facts':
// PENDING < UNKNOWN < SUCCEEDED | FAILED < REFUND_PENDING < REFUNDED. A refund in flight is no fact (a refusal takes
// it back to SUCCEEDED), and SUCCEEDED and FAILED never overrule each other (that is an anomaly for a person).
/** The row moved forward to the furthest state its facts prove; the row itself when it is not behind them. */
export function mergeFacts<R extends MergedFields>(row: R, facts: readonly StateFact[]): R {
  const fact = (sk: string) => facts.find((f) => f.sk === sk);
  const charge = fact(CHARGE_JOURNAL_SK);
  const refund = fact(REFUND_JOURNAL_SK);
  const decline = fact(DECLINE_FACT_SK);
  const open = CHARGE_OPEN_STATES.includes(row.state);
  // A SUCCEEDED row must name its charge (a refund is made against it), so only an entry that names it settles one.
  const psp_charge = row.psp_charge ?? charge?.psp_charge;
  if (refund && row.state !== "REFUNDED")
    return forward(row, "REFUNDED", { psp_charge, psp_refund: row.psp_refund ?? refund.psp_refund });
  if (open && charge?.psp_charge) return forward(row, "SUCCEEDED", { psp_charge });
  if (open && decline) return forward(row, "FAILED", { decline_code: decline.decline_code });
  return row;
}

/** What the merge reads and sets of a row: a whole payment row, or the fields reconciliation reads of one. */
type MergedFields = Pick<PaymentRow, "state" | "psp_charge" | "psp_refund" | "decline_code">;

function forward<R extends MergedFields>(row: R, state: PaymentState, set: Partial<MergedFields>): R {
  const defined = Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined));
  return { ...row, ...defined, state };
}
