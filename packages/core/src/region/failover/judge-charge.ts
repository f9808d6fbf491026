import type { PspChargeRecord } from "../../reconcile/compare-records";

/** A payment row as the failover's verify reads it: merged with its state facts (`state-facts.ts`). */
export interface VerifiedRow {
  state: string;
  amount: number;
  currency: string;
}

// The states in which the money stays charged: a refund not begun, in flight (not at the PSP yet), or failed there.
const CHARGED_NOT_REFUNDED = new Set(["SUCCEEDED", "REFUND_PENDING", "REFUND_UNKNOWN", "REFUND_FAILED"]);

/**
 * Why the row disagrees with a successful PSP charge, or undefined when it agrees: a charge needs a row that says
 * charged (SUCCEEDED or a refund state), the same amount and currency, and REFUNDED exactly when the PSP refunded it.
 */
export function judgeCharge(c: PspChargeRecord, row: VerifiedRow | undefined): string | undefined {
  if (!row) return "no row";
  if (row.amount !== c.amount) return `row ${row.amount}, the PSP charged ${c.amount}`;
  if (row.currency.toUpperCase() !== c.currency.toUpperCase())
    return `row in ${row.currency}, the PSP charged in ${c.currency}`;
  if (c.refunded)
    return row.state === "REFUNDED" ? undefined : `row ${row.state}, the PSP refunded the charge`;
  if (CHARGED_NOT_REFUNDED.has(row.state)) return undefined;
  return row.state === "REFUNDED"
    ? "row REFUNDED, the PSP did not refund the charge"
    : `row ${row.state}, the PSP charged`;
}
