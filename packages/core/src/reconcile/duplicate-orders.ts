import type { Discrepancy, LedgerPayment, PspChargeRecord } from "./reconcile-records";

/**
 * The orders charged more than once: rows naming one owner (caller) and order id whose charges the PSP holds,
 * succeeded and not refunded. Each row compares well with its own charge, so only a check per order sees a second
 * payment made with a new key for an order already charged (a key voided on a lookup that lagged, issue 40). Every
 * charge after an order's first is reported, when its row is among those judged.
 */
export function duplicateOrders(
  rows: readonly LedgerPayment[],
  byReference: ReadonlyMap<string, PspChargeRecord>,
  judged: ReadonlySet<string>,
): Discrepancy[] {
  const byOrder = new Map<string, LedgerPayment[]>();
  for (const r of rows) {
    const c = byReference.get(r.payment_id);
    if (!r.caller || !r.order_id || !c || c.refunded) continue;
    const order = JSON.stringify([r.caller, r.order_id]);
    byOrder.set(order, [...(byOrder.get(order) ?? []), r]);
  }
  const out: Discrepancy[] = [];
  for (const group of byOrder.values()) {
    if (group.length < 2) continue;
    const ordered = [...group].sort(
      (a, b) => a.created_at - b.created_at || a.payment_id.localeCompare(b.payment_id),
    );
    const ids = ordered.map((r) => r.payment_id).join(", ");
    for (const r of ordered.slice(1).filter((r) => judged.has(r.payment_id)))
      out.push({
        kind: "duplicate-order",
        payment_id: r.payment_id,
        charge: byReference.get(r.payment_id)?.id,
        detail: `order ${r.order_id} of ${r.caller} charged ${group.length} times (payments ${ids})`,
      });
  }
  return out;
}
