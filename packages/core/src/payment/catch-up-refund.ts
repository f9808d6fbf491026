import { REFUND_JOURNAL_SK } from "../ledger/journal-and-outbox";
import type { ActiveRegion } from "../region/active-region";
import type { PaymentDeps } from "./payment-deps";
import { mayMove } from "./payment-state";
import { unsafeNoRefundCatchUp } from "./payment-test-switches";

/** A ledger stream record as far as the catch-up reads it (no `aws-lambda` types in the domain). */
export interface LedgerStreamRecord {
  eventName?: string;
  dynamodb?: { Keys?: Record<string, { S?: string }> };
}

/** The payments whose refund journal entry a batch of ledger stream records inserted. */
export function refundsJournalled(records: readonly LedgerStreamRecord[]): string[] {
  const ids = records
    .filter((r) => r.eventName === "INSERT" && r.dynamodb?.Keys?.sk?.S === REFUND_JOURNAL_SK)
    .map((r) => r.dynamodb?.Keys?.pk?.S?.replace(/^PAY#/, "") ?? "")
    .filter((id) => id.startsWith("pay_"));
  return [...new Set(ids)];
}

/**
 * Moves to REFUNDED each payment whose refund journal entry is here while its row is not; returns how many moved.
 *
 * Last writer wins per item and a transaction is atomic only in its own Region (seed Part 9): a refund the failed
 * Region applied within the lag reaches this one as journal entries, while its row write loses to a later write of
 * the same row here (the standby settling the charge again). Nothing else would ever tell this Region, since the PSP
 * delivered its webhook to the other one; the journal entry, keyed by the payment, proves the refund, and the move
 * catches the row up with the event's derived id (found by the fault checker's two-Region schedules).
 */
export async function catchUpRefunds(
  deps: PaymentDeps,
  region: ActiveRegion,
  paymentIds: readonly string[],
): Promise<number> {
  if (paymentIds.length === 0 || unsafeNoRefundCatchUp() || !(await region.isActive())) return 0;
  let moved = 0;
  for (const paymentId of paymentIds) {
    // In the Region that wrote the entry the row is REFUNDED already: one read, and nothing to do.
    const row = await deps.ledger.getPayment(paymentId);
    if (!row || !mayMove(row.state, "REFUNDED")) continue;
    const result = await deps.ledger.move({
      paymentId,
      to: "REFUNDED",
      now: deps.clock.now(),
      expected: row,
    });
    if (result.moved) moved += 1;
  }
  return moved;
}
