import type { LedgerPayment, PspChargeRecord } from "./compare-records";

/** Told how many records a source has read so far, after each page. */
export type ReadProgress = (n: number) => void;

/** The two sides a reconciliation reads, each every page of it: the PSP's charges and the ledger's payment rows. */
export interface ReconcileSources {
  /** Every PSP charge created since `sinceS` (unix seconds), failed ones included. */
  charges(sinceS: number, progress: ReadProgress): Promise<PspChargeRecord[]>;
  /** The ledger's payment rows created since `sinceMs` (reconcileSince asks from before its period: the look-back). */
  payments(sinceMs: number, progress: ReadProgress): Promise<LedgerPayment[]>;
}
