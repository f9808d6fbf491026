import type { PaymentState } from "../payment/payment-state";
import type { LookupCursor } from "../psp/psp-port";
import type { FoundAtPsp } from "./found-at-psp";
import type { LocatorRow, PaymentAnomaly, PaymentRow } from "./ledger-items";
import type { RefundMark } from "./refund-marks";

/** What a failed insert found in the way: the locator, and the payment it names when there is one. */
export interface GuardConflict {
  locator: LocatorRow;
  payment?: PaymentRow;
}

/** A state move: compare-and-set from a state the state machine allows into `to`, with the fields it sets. */
export interface Move {
  paymentId: string;
  to: PaymentState;
  set?: Partial<
    Pick<
      PaymentRow,
      | "psp_charge"
      | "psp_charge_open"
      | "psp_refund"
      | "decline_code"
      | "refund_attempt"
      | "refund_started_at"
      | "refund_refusal"
      | "refund_failure_reason"
      | "anomaly"
    >
  >;
  /** The states this move may leave; required to leave a refund attempt back to SUCCEEDED. */
  from?: readonly PaymentState[];
  /** The row as the caller last read it, to save a read; the compare-and-set still checks its state. */
  expected?: PaymentRow;
  /** An inbox item to write in the same transaction (the webhook's event id). */
  inboxEventId?: string;
  now: number;
}

export type MoveResult =
  | { moved: true; row: PaymentRow }
  | { moved: false; row?: PaymentRow; duplicate?: boolean };

/** The ledger: the payment rows, their locators (the durable guard), journal and outbox. */
export interface LedgerPort {
  /** Writes the payment row and its locator in one transaction, only if neither exists. */
  insertPending(row: PaymentRow): Promise<{ inserted: true } | ({ inserted: false } & GuardConflict)>;
  /** Writes a VOID locator tombstone, stamped with `epoch` where given, only if the key has no locator yet. */
  insertVoid(
    caller: string,
    key: string,
    now: number,
    epoch?: number,
  ): Promise<{ inserted: true } | ({ inserted: false } & GuardConflict)>;
  /** The payment as its row and the state facts beside it say: the furthest state either holds (`state-facts.ts`). */
  getPayment(paymentId: string): Promise<PaymentRow | undefined>;
  getLocator(caller: string, key: string): Promise<LocatorRow | undefined>;
  /** What a resolve found at the PSP for a payment with no final row here, and kept (`found-at-psp.ts`). */
  getFoundAtPsp(paymentId: string): Promise<FoundAtPsp | undefined>;
  /** Keeps what a resolve found at the PSP, only if nothing is kept for the payment yet. */
  keepFoundAtPsp(paymentId: string, found: FoundAtPsp): Promise<void>;
  /**
   * Moves a payment by compare-and-set on the state its row stores, from the state it reads with its facts; the
   * move also puts the facts it proves (the journal entries with their outbox events, a decline's fact).
   */
  move(m: Move): Promise<MoveResult>;
  /** Writes a row that is behind its state facts forward to them, alone; answers the row as it reads now. */
  catchUp(paymentId: string, now: number): Promise<MoveResult>;
  /**
   * Sends an unsettled row to the back of the sweep index (under its payment's shard), so that rows behind it get
   * their turn; with a later `retryAt` it also counts a lookup that found nothing and keeps the row out of passes
   * until then.
   */
  touchSweep(paymentId: string, state: PaymentState, now: number, retryAt?: number): Promise<void>;
  /**
   * Sets a row's charge sends (`psp_sends`) from `before` to `after`, on the condition that the row is still in
   * `state` with `before`; false when it moved or another send was recorded meanwhile. Written before the send.
   */
  recordPspSends(s: {
    paymentId: string;
    state: PaymentState;
    before: number[] | undefined;
    after: number[];
  }): Promise<boolean>;
  /** Keeps where an unfinished lookup stopped (or removes it, with undefined) while the row is in `state`. */
  keepLookupCursor(paymentId: string, state: PaymentState, cursor: LookupCursor | undefined): Promise<void>;
  /**
   * Sends a row whose settle failed to the back of the sweep index until `retryAt`, counts the failure on the row
   * (`resolver_failures`) and keeps its error (`resolver_error`); answers the count, or undefined when the row has
   * left `state` meanwhile (nothing written).
   */
  recordSettleFailure(
    paymentId: string,
    state: PaymentState,
    retryAt: number,
    error: string,
  ): Promise<number | undefined>;
  /** Records an anomaly on the row once and lists it for the resolver's report; false if one is there. */
  recordAnomaly(paymentId: string, anomaly: PaymentAnomaly): Promise<boolean>;
  /** Writes the webhook inbox item for a PSP event that moved nothing; false if it was there already. */
  rememberWebhookEvent(eventId: string, paymentId: string, now: number): Promise<boolean>;
  /** Rows with a recorded anomaly. */
  listAnomalies(limit: number): Promise<PaymentRow[]>;
  /** Refund attempts whose pending fact is still marked in flight and due before `beforeMs`, oldest first. */
  listRefundMarks(beforeMs: number, limit: number): Promise<RefundMark[]>;
  /**
   * Takes a refund attempt's pending fact out of the marks once a pass has seen the attempt over, or with `dueMs`
   * keeps it and looks again then.
   */
  updateRefundMark(mark: { paymentId: string; sk: string; dueMs?: number }): Promise<void>;
  /**
   * Rows in `state` last changed before `beforeMs`, oldest first over every shard of the sparse state index (and the
   * earlier version's single key), at most `limit` (never a scan).
   */
  listByState(state: PaymentState, beforeMs: number, limit: number): Promise<PaymentRow[]>;
}
