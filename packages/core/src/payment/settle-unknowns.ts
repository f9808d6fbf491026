import { refundKeyOf, scopeOf } from "../ids/derive-ids";
import type { PaymentRow } from "../ledger/ledger-items";
import type { RateCap } from "../rate/rate-cap";
import { settleRefund } from "./cancel-payment";
import type { PaymentDeps } from "./payment-deps";
import type { PaymentState } from "./payment-state";
import { renderPayment } from "./render-payment";
import { replayCharge } from "./replay-charge";
import { settleCharge } from "./settle-charge";

const PSP_TIMEOUT_MS = 5_000;

export interface ResolverReport {
  examined: number;
  settled: Array<{ payment_id: string; from: PaymentState; to: PaymentState }>;
  unresolved: Array<{ payment_id: string; state: PaymentState }>;
  rateLimited: boolean;
}

/** One step of a resolver pass, for an operator's progress lines. */
export type ResolverProgress = (e: { payment_id: string; from: PaymentState; to: PaymentState }) => void;

/**
 * The payments a resolver pass would examine now: UNKNOWN ones, and PENDING ones whose owner's
 * deadline plus margin has passed (and the same for refunds), from the sparse state index.
 */
export async function listUnsettled(deps: PaymentDeps, limit = 100): Promise<PaymentRow[]> {
  const now = deps.clock.now();
  const stale = now - deps.config.deadlineMs - deps.config.takeoverMarginMs;
  const batches: Array<[PaymentState, number]> = [
    ["UNKNOWN", now + 1],
    ["PENDING", stale],
    ["REFUND_UNKNOWN", now + 1],
    ["REFUND_PENDING", stale],
  ];
  const rows: PaymentRow[] = [];
  for (const [state, before] of batches) rows.push(...(await deps.ledger.listByState(state, before, limit)));
  return rows;
}

/**
 * The resolver (Part 3 and 4): replays the PSP call with the derived key for every payment whose
 * outcome is unknown, and PENDING ones whose owner's deadline plus margin has passed; moves them by
 * compare-and-set and rewrites the key record's stored answer to the final one.
 */
export async function settleUnknowns(
  deps: PaymentDeps,
  cap: RateCap,
  limit = 100,
  onProgress?: ResolverProgress,
): Promise<ResolverReport> {
  const report: ResolverReport = { examined: 0, settled: [], unresolved: [], rateLimited: false };
  for (const listed of await listUnsettled(deps, limit)) {
    // The index is read once; another resolver may have settled the row since.
    const row = await deps.ledger.getPayment(listed.payment_id);
    if (row?.state !== listed.state) continue;
    if (!(await cap.take())) return { ...report, rateLimited: true };
    report.examined += 1;
    const after = await settleOne(deps, row);
    onProgress?.({ payment_id: row.payment_id, from: row.state, to: after.state });
    if (after.state !== row.state)
      report.settled.push({ payment_id: row.payment_id, from: row.state, to: after.state });
    else report.unresolved.push({ payment_id: row.payment_id, state: row.state });
  }
  return report;
}

async function settleOne(deps: PaymentDeps, row: PaymentRow): Promise<PaymentRow> {
  if (row.state === "REFUND_UNKNOWN" || row.state === "REFUND_PENDING") {
    const reply = await deps.psp.refund(
      refundKeyOf(row.payment_id),
      row.psp_charge ?? "",
      row.payment_id,
      PSP_TIMEOUT_MS,
    );
    const settledRefund = await settleRefund(deps, row.payment_id, reply);
    if (settledRefund.state === row.state)
      await deps.ledger.touchSweep(row.payment_id, row.state, deps.clock.now());
    return settledRefund;
  }
  const settled = await settleCharge(
    deps,
    row.payment_id,
    await replayCharge(deps, row, PSP_TIMEOUT_MS),
    row,
  );
  // Nothing settled: move it to the back of the sweep index so that the rows behind it get their turn.
  if (settled.state === row.state) await deps.ledger.touchSweep(row.payment_id, row.state, deps.clock.now());
  const answer = renderPayment(settled);
  if (answer.kind === "final")
    await deps.claims.table.rewriteAnswer(scopeOf(row.caller, row.client_key), answer);
  return settled;
}
