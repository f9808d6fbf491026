import { unsafeNoRefundMark } from "../ledger/ledger-test-switches";
import type { PaymentDeps } from "./payment-deps";
import { findRefusal } from "./payment-errors";

/** How long a marked attempt still in flight waits before a pass looks at it again. */
const MARK_RECHECK_MS = 60_000;

/** What a pass did with the marks: rows written forward to their refund facts, and attempts seen over. */
export interface MarkedRefunds {
  caughtUp: number;
  unmarked: number;
}

/**
 * The resolver pass's net under the stream's refund catch-up (`catch-up-refund.ts`), which runs on a pending fact's
 * insert in an active Region only: a fact both Regions met while passive (the primary failed with it, the standby
 * was cut off when it arrived) reaches a row written over by the other Region's older copy, and nothing else ever
 * looks at it (found by the real-world nemesis, issue 42). Each marked attempt's row is caught up, so the pass sends
 * its refund; the mark goes once the row reads past that attempt. A passive Region stops at its first write.
 */
export async function catchUpMarkedRefunds(deps: PaymentDeps, limit: number): Promise<MarkedRefunds> {
  const done: MarkedRefunds = { caughtUp: 0, unmarked: 0 };
  if (unsafeNoRefundMark()) return done;
  try {
    for (const mark of await deps.ledger.listRefundMarks(deps.clock.now(), limit)) {
      const result = await deps.ledger.catchUp(mark.payment_id, deps.clock.now());
      if (result.moved) done.caughtUp += 1;
      const row = result.row;
      const inFlight =
        !row ||
        ((row.state === "REFUND_PENDING" || row.state === "REFUND_UNKNOWN") &&
          (row.refund_attempt ?? 1) === mark.refund_attempt);
      // Still in flight (or its row not replicated yet): looked at again later, behind the marks that are due, since
      // the other Region's older copy may still arrive and write over the row.
      const dueMs = inFlight ? deps.clock.now() + MARK_RECHECK_MS : undefined;
      await deps.ledger.updateRefundMark({ paymentId: mark.payment_id, sk: mark.sk, dueMs });
      if (!inFlight) done.unmarked += 1;
    }
  } catch (err) {
    // Fenced: this Region is passive now, and the Region the authority names runs the same pass.
    if (findRefusal(err)?.kind !== "region-passive") throw err;
  }
  return done;
}
