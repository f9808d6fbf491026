import { loadTunables } from "../../src/config/config";
import type { PaymentRow } from "../../src/ledger/ledger-items";
import type { LedgerPort, Move } from "../../src/ledger/ledger-port";
import type { PaymentDeps } from "../../src/payment/payment-deps";
import { isSwept, mayMove, type PaymentState } from "../../src/payment/payment-state";
import type { PspPort } from "../../src/psp/psp-port";

type Listed = PaymentRow & { sweepAt: number };

/**
 * The ledger operations a resolver pass uses, held in memory: rows by id, the sweep index as each open row's time,
 * moves checked by the state machine. Enough to run `settleUnknowns` against the fake PSP without DynamoDB.
 */
export class MemoryLedger {
  readonly rows = new Map<string, Listed>();

  /** Puts a row as the durable guard and a settle would have left it, listed in the index at `updated_at`. */
  put(row: PaymentRow): void {
    this.rows.set(row.payment_id, { ...row, sweepAt: row.updated_at });
  }

  /** The row as stored, index time included. */
  get(paymentId: string): Listed | undefined {
    return this.rows.get(paymentId);
  }

  port(): LedgerPort {
    const read = async (id: string) => this.view(id);
    const port: Partial<LedgerPort> = {
      getPayment: read,
      getLocator: async () => undefined,
      catchUp: async (id) => ({ moved: false, row: this.view(id) }),
      listAnomalies: async () => [],
      // No refund is marked in flight here: these rows never cross Regions.
      listRefundMarks: async () => [],
      listByState: async (state, before, limit) => this.listed(state, before, limit),
      move: async (m) => this.move(m),
      touchSweep: async (id, state, _now, retryAt) => this.touch(id, state, retryAt ?? _now),
      // As on DynamoDB: only while the row is in `state` with the sends the writer read (issue 39).
      recordPspSends: async ({ paymentId, state, before, after }) => {
        const row = this.rows.get(paymentId);
        if (row?.state !== state || JSON.stringify(row.psp_sends) !== JSON.stringify(before)) return false;
        row.psp_sends = after;
        return true;
      },
      keepLookupCursor: async (id, state, cursor) => {
        const row = this.rows.get(id);
        if (row?.state === state) row.lookup_cursor = cursor;
      },
      recordSettleFailure: async (id, state, retryAt, error) => {
        const row = this.rows.get(id);
        if (row?.state !== state) return undefined;
        Object.assign(row, { sweepAt: retryAt, resolver_error: error });
        row.resolver_failures = (row.resolver_failures ?? 0) + 1;
        return row.resolver_failures;
      },
    };
    return port as LedgerPort;
  }

  private view(id: string): PaymentRow | undefined {
    const row = this.rows.get(id);
    if (!row) return undefined;
    const { sweepAt: _s, ...plain } = row;
    return plain;
  }

  private listed(state: PaymentState, before: number, limit: number): PaymentRow[] {
    return [...this.rows.values()]
      .filter((r) => r.state === state && isSwept(r.state) && r.sweepAt < before)
      .sort((a, b) => a.sweepAt - b.sweepAt)
      .slice(0, limit)
      .map((r) => this.view(r.payment_id) as PaymentRow);
  }

  private async move(m: Move) {
    const row = this.rows.get(m.paymentId);
    if (!row || !mayMove(row.state, m.to, m.from))
      return { moved: false as const, row: this.view(m.paymentId) };
    Object.assign(row, m.set ?? {}, { state: m.to, updated_at: m.now, sweepAt: m.now });
    return { moved: true as const, row: this.view(m.paymentId) as PaymentRow };
  }

  private touch(id: string, state: PaymentState, retryAt: number): void {
    const row = this.rows.get(id);
    if (row?.state === state) row.sweepAt = retryAt;
  }
}

/** The payment ports on a memory ledger and a PSP adapter, a budget that always has a slot, and the shipped tunables. */
export function memoryDeps(ledger: MemoryLedger, psp: PspPort): PaymentDeps {
  return {
    ledger: ledger.port(),
    claims: { table: { rewriteAnswer: async () => true } },
    psp,
    pspBudget: { reserve: async () => ({ granted: true, atMs: Date.now() }) },
    config: loadTunables({}),
    clock: { now: () => Date.now() },
  } as unknown as PaymentDeps;
}

/** An open payment row made `agoMs` ago, for payment `id`, of the current body version unless told. */
export function openRow(id: string, more: Partial<PaymentRow> = {}, agoMs = 10_000): PaymentRow {
  const at = Date.now() - agoMs;
  return {
    payment_id: id,
    caller: "u1",
    client_key: `k-${id}`,
    fingerprint: "f",
    order_id: "42",
    amount: 3000,
    currency: "USD",
    payment_method: "pm_card_visa",
    merchant_id: "m1",
    state: "UNKNOWN",
    body_version: 2,
    created_at: at,
    updated_at: at,
    ...more,
  };
}
