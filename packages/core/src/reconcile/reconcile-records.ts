// What reconciliation compares and reports: the PSP's charges, the ledger's rows, and their disagreements.

/** A PSP charge as its list API shows it. */
export interface PspChargeRecord {
  id: string;
  reference: string;
  amount: number;
  currency: string;
  status: "succeeded" | "failed";
  refunded: boolean;
  created: number;
}

/** A ledger payment row, the fields reconciliation reads. */
export interface LedgerPayment {
  payment_id: string;
  state: string;
  amount: number;
  currency: string;
  psp_charge?: string;
  created_at: number;
  /** The owner and their order id, for the check per order (absent on rows written without them). */
  caller?: string;
  order_id?: string;
}

/** The kinds of discrepancy, as the report names them. */
export type DiscrepancyKind =
  | "charge-without-row"
  | "succeeded-without-charge"
  | "amount-mismatch"
  | "currency-mismatch"
  | "failed-but-charged"
  | "refunded-not-refunded"
  | "stale-unknown"
  | "duplicate-order";

/** One thing the PSP and the ledger disagree on, named by the payment and, where there is one, the charge. */
export interface Discrepancy {
  kind: DiscrepancyKind;
  payment_id: string;
  charge?: string;
  detail: string;
}

/**
 * What reconciliation found: what matched (counts and sums per currency), each discrepancy, and how many charges
 * with no row it left to the next run because their row may still be in flight (`too_recent`).
 */
export interface Reconciliation {
  matched: { count: number; sums: Record<string, number> };
  charges: number;
  /** The rows judged: those created in the period, and those from the look-back that a listed charge names. */
  rows: number;
  too_recent: number;
  discrepancies: Discrepancy[];
}

/** What a comparison judges by: its clock and staleness, the period's start, and where "too recent" begins. */
export interface CompareWindow {
  now: number;
  staleMs: number;
  /** A row created before this (read in the look-back) is judged only when a listed charge names it. */
  sinceMs: number;
  /** A charge with no row created at or after this (ms) is counted as too recent, not reported. */
  recentFromMs: number;
}
