import { refundFactOf } from "../ledger/journal-and-outbox";
import type { MoveResult } from "../ledger/ledger-port";
import { unsafeRowsLastWriterWins } from "../ledger/ledger-test-switches";
import { inFlightFactOf } from "../ledger/refund-in-flight-facts";
import type { ActiveRegion } from "../region/active-region";
import { unsafeRelayDropsUnread } from "../region/delivery-window";
import type { PaymentDeps } from "./payment-deps";
import { mayMove } from "./payment-state";
import { unsafeNoRefundCatchUp } from "./payment-test-switches";

/** A ledger stream record as far as the catch-up reads it (no `aws-lambda` types in the domain). */
export interface LedgerStreamRecord {
  eventName?: string;
  dynamodb?: { Keys?: Record<string, { S?: string }> };
}

/**
 * The payments whose refund journal entry or refund in-flight fact (of any attempt) a batch of ledger stream records
 * inserted: either can find its row behind it, written over by the other Region's older copy.
 */
export function refundsJournalled(records: readonly LedgerStreamRecord[]): string[] {
  const catchesUp = (sk: string | undefined) =>
    refundFactOf(sk)?.state === "REFUNDED" || inFlightFactOf(sk)?.state === "REFUND_PENDING";
  const ids = records
    .filter((r) => r.eventName === "INSERT" && catchesUp(r.dynamodb?.Keys?.sk?.S))
    .map((r) => r.dynamodb?.Keys?.pk?.S?.replace(/^PAY#/, "") ?? "")
    .filter((id) => id.startsWith("pay_"));
  return [...new Set(ids)];
}

/**
 * Catches up each payment whose refund journal entry arrived here while its row is behind it (`ledger.catchUp`);
 * returns how many rows moved.
 *
 * Last writer wins per item and a transaction is atomic only in its own Region (seed Part 9): a refund the failed
 * Region applied within the lag reaches this one as its journal entry, while its row write loses to a later write of
 * the same row here (the standby settling the charge again). Every read folds the entry in already; the row itself
 * is written forward too, so that the sweep index and the tables read raw agree (found by the fault checker's
 * two-Region schedules).
 */
export async function catchUpRefunds(
  deps: PaymentDeps,
  region: ActiveRegion,
  paymentIds: readonly string[],
): Promise<number> {
  if (paymentIds.length === 0 || unsafeNoRefundCatchUp()) return 0;
  // An authority that cannot be read fails the batch, which the stream retries: skipping would lose the trigger.
  if (!unsafeRelayDropsUnread()) await region.control();
  if (!(await region.isActive())) return 0;
  let moved = 0;
  // In the Region that wrote the entry the row is REFUNDED already: one read, and nothing to do.
  for (const paymentId of paymentIds) {
    const result = unsafeRowsLastWriterWins()
      ? await moveAsBefore(deps, paymentId)
      : await deps.ledger.catchUp(paymentId, deps.clock.now());
    if (result.moved) moved += 1;
  }
  return moved;
}

// The counterfactual's catch-up, as before the rows merged forward: a row that allows the move to REFUNDED moves
// (alone, since its journal entry is there), and one still PENDING or UNKNOWN stays behind.
async function moveAsBefore(deps: PaymentDeps, paymentId: string): Promise<MoveResult> {
  const row = await deps.ledger.getPayment(paymentId);
  if (!row || !mayMove(row.state, "REFUNDED")) return { moved: false, row };
  return deps.ledger.move({ paymentId, to: "REFUNDED", now: deps.clock.now(), expected: row });
}
