import { duplicateOrders } from "./duplicate-orders";
import type {
  CompareWindow,
  Discrepancy,
  DiscrepancyKind,
  LedgerPayment,
  PspChargeRecord,
  Reconciliation,
} from "./reconcile-records";

// The records live in their own module (no import circle with duplicate-orders.ts); callers still find them here.
export type * from "./reconcile-records";

// Stripe-like PSPs answer currencies in lower case; the ledger keeps ISO 4217's upper case.
const upper = (currency: string) => currency.toUpperCase();

/** How many discrepancies of each kind a reconciliation found (the kinds it found, in report order). */
export function discrepancyCounts(r: Reconciliation): Map<DiscrepancyKind, number> {
  const kinds = new Map<DiscrepancyKind, number>();
  for (const d of r.discrepancies) kinds.set(d.kind, (kinds.get(d.kind) ?? 0) + 1);
  return kinds;
}

// REFUND_FAILED: the refund failed at the PSP after it was accepted, so the charge stands there as it does here.
const CHARGED = new Set(["SUCCEEDED", "REFUND_PENDING", "REFUND_UNKNOWN", "REFUNDED", "REFUND_FAILED"]);

/** Compares the PSP's successful charges with the ledger's rows, by our reference (the payment id). */
export function reconcile(
  charges: PspChargeRecord[],
  rows: LedgerPayment[],
  o: CompareWindow,
): Reconciliation {
  const succeeded = charges.filter((c) => c.status === "succeeded");
  const byReference = new Map(succeeded.map((c) => [c.reference, c]));
  const rowIds = new Set(rows.map((r) => r.payment_id));
  const orphans = chargesWithoutRow(succeeded, rowIds, o.recentFromMs);
  // A look-back row that no charge names belongs to an earlier period, whose run judged it.
  const judged = rows.filter((r) => r.created_at >= o.sinceMs || byReference.has(r.payment_id));
  const out: Discrepancy[] = [
    ...orphans.discrepancies,
    ...duplicateOrders(rows, byReference, new Set(judged.map((r) => r.payment_id))),
  ];
  const sums: Record<string, number> = {};
  let matched = 0;
  for (const r of judged) {
    const found = judgeRow(r, byReference.get(r.payment_id), o);
    out.push(...found);
    const c = byReference.get(r.payment_id);
    if (found.length === 0 && c && CHARGED.has(r.state)) {
      matched += 1;
      sums[upper(c.currency)] = (sums[upper(c.currency)] ?? 0) + c.amount;
    }
  }
  return {
    matched: { count: matched, sums },
    charges: succeeded.length,
    rows: judged.length,
    too_recent: orphans.tooRecent,
    discrepancies: out,
  };
}

/**
 * The charges no row read names: lost payments, except those made since `recentFromMs`, whose row may not have
 * been written when the ledger was scanned; those are only counted, and the next run judges them.
 */
function chargesWithoutRow(
  succeeded: PspChargeRecord[],
  rowIds: Set<string>,
  recentFromMs: number,
): { discrepancies: Discrepancy[]; tooRecent: number } {
  const discrepancies: Discrepancy[] = [];
  let tooRecent = 0;
  for (const c of succeeded) {
    if (rowIds.has(c.reference)) continue;
    if (c.created * 1000 >= recentFromMs) tooRecent += 1;
    else
      discrepancies.push({
        kind: "charge-without-row",
        payment_id: c.reference,
        charge: c.id,
        detail: `${c.amount} ${c.currency} charged, no ledger row`,
      });
  }
  return { discrepancies, tooRecent };
}

function judgeRow(r: LedgerPayment, c: PspChargeRecord | undefined, o: CompareWindow): Discrepancy[] {
  const d = (kind: DiscrepancyKind, detail: string): Discrepancy => ({
    kind,
    payment_id: r.payment_id,
    charge: c?.id,
    detail,
  });
  if (r.state === "PENDING" || r.state === "UNKNOWN") {
    const age = o.now - r.created_at;
    return age > o.staleMs ? [d("stale-unknown", `${r.state} for ${Math.round(age / 60_000)} min`)] : [];
  }
  if (r.state === "FAILED")
    return c
      ? [d("failed-but-charged", `answered FAILED, but the PSP charged ${c.amount} ${c.currency}`)]
      : [];
  if (!CHARGED.has(r.state)) return [];
  if (!c)
    return [d("succeeded-without-charge", `${r.state} for ${r.amount} ${r.currency}, no charge at the PSP`)];
  const out: Discrepancy[] = [];
  if (c.amount !== r.amount) out.push(d("amount-mismatch", `ledger ${r.amount}, PSP ${c.amount}`));
  if (upper(c.currency) !== upper(r.currency))
    out.push(d("currency-mismatch", `ledger ${r.currency}, PSP ${c.currency}`));
  if (r.state === "REFUNDED" && !c.refunded)
    out.push(d("refunded-not-refunded", "REFUNDED in the ledger, not refunded at the PSP"));
  return out;
}
