import type { RemoteObserved } from "./remote-observe";
import type { InvariantResult } from "./report-types";

const FINAL = new Set(["SUCCEEDED", "FAILED", "REFUNDED"]);
const MAX_SHOWN = 5;

/**
 * The local run's invariants that a deployed stage cannot show from its public API and the PSP's records, each
 * with why and where to look instead; the report lists them as not judged rather than leaving them out.
 */
export const NOT_JUDGED_ON_A_STAGE: Record<string, string> = {
  "every SUCCEEDED payment credited once":
    "merchant balances and credit records are not in the public API (locally /_local/merchants); on a stage read the consumer table's credits for the run's merchants (lt-<run>-*)",
  "every SUCCEEDED payment notified":
    "the phones' screens are /_local/devices only; a stage pushes through SNS to real devices, so the run registers none",
  "the resolver's index is empty":
    "the ledger's sweep index is /_local/backlog only; judged instead over the run's own payments (none left PROCESSING)",
};

function result(name: string, bad: string[], counted: string): InvariantResult {
  return {
    name,
    ok: bad.length === 0,
    detail: bad.length === 0 ? counted : `${bad.length} broken: ${bad.slice(0, MAX_SHOWN).join("; ")}`,
  };
}

const succeeded = (o: RemoteObserved) => o.charges.filter((c) => c.status === "succeeded");

/** At most one succeeded PSP charge per payment id (the reference), and one per order the phones placed. */
export function oneChargePerPayment(o: RemoteObserved): InvariantResult {
  const charges = succeeded(o);
  const perRef = new Map<string, number>();
  for (const c of charges) perRef.set(c.reference, (perRef.get(c.reference) ?? 0) + 1);
  const orderOf = new Map(o.phones.flatMap((p) => [...p.payment_ids].map((id) => [id, p.order.order_id])));
  const perOrder = new Map<string, number>();
  for (const c of charges) {
    const order = orderOf.get(c.reference);
    if (order) perOrder.set(order, (perOrder.get(order) ?? 0) + 1);
  }
  const bad = [...perRef, ...[...perOrder].map(([k, n]) => [`order ${k}`, n] as const)]
    .filter(([, n]) => n > 1)
    .map(([id, n]) => `${id} charged ${n} times`);
  return result(
    "at most one PSP charge per payment and per order (PSP records)",
    bad,
    `${charges.length} charges, ${perRef.size} references`,
  );
}

/** Every succeeded PSP charge of the run belongs to a SUCCEEDED payment of the caller that names it, same amount. */
export function everyChargeHasPayment(o: RemoteObserved): InvariantResult {
  const bad = succeeded(o).flatMap((c) => {
    const row = o.rows.get(c.reference);
    if (o.unread.has(c.reference)) return [`charge ${c.id} (${c.reference}): the API did not answer`];
    if (!row) return [`charge ${c.id} (${c.reference || "no reference"}) has no payment`];
    const state = c.refunded ? "REFUNDED" : "SUCCEEDED";
    if (row.state !== state || row.psp_charge !== c.id)
      return [
        `charge ${c.id}: the payment says ${row.state}${row.psp_charge ? ` with ${row.psp_charge}` : ""}`,
      ];
    if (row.amount !== undefined && row.amount !== c.amount)
      return [`charge ${c.id}: ${c.amount} at the PSP, ${row.amount} in the payment`];
    return [];
  });
  return result(
    "every PSP charge has a SUCCEEDED payment naming it (PSP records + GET /payments/{id})",
    bad,
    `${succeeded(o).length} charges matched`,
  );
}

/** Every SUCCEEDED payment's charge is in the PSP's records: no success the PSP does not know. */
export function everySuccessCharged(o: RemoteObserved): InvariantResult {
  const ids = new Set(succeeded(o).map((c) => c.id));
  const bad = [...o.rows].flatMap(([id, row]) =>
    row.state === "SUCCEEDED" && !(row.psp_charge && ids.has(row.psp_charge))
      ? [`${id} SUCCEEDED with ${row.psp_charge ?? "no charge"}, not at the PSP`]
      : [],
  );
  const n = [...o.rows.values()].filter((r) => r.state === "SUCCEEDED").length;
  return result("every SUCCEEDED payment is charged at the PSP", bad, `${n} successes found at the PSP`);
}

/**
 * Nothing of the run is left PROCESSING, every heard payment could be read, and no buyer heard what the API denies
 * (a voided key may have no payment to read: a 404 alone is not a finding).
 */
export function nothingUnknown(o: RemoteObserved): InvariantResult {
  const bad = [...o.rows].filter(([, r]) => !FINAL.has(r.state)).map(([id, r]) => `${id} is ${r.state}`);
  for (const p of o.phones) {
    for (const id of p.payment_ids) {
      if (o.unread.has(id)) bad.push(`${id}: the API did not answer`);
    }
    const state = p.payment_id ? o.rows.get(p.payment_id)?.state : undefined;
    if (p.outcome === "succeeded" && state !== "SUCCEEDED")
      bad.push(`${p.order.order_id} heard 201, the API says ${state}`);
    if (p.outcome === "declined" && state !== "FAILED")
      bad.push(`${p.order.order_id} heard 402, the API says ${state}`);
  }
  return result(
    "no payment left unknown; answers agree with GET /payments/{id}",
    bad,
    `${o.rows.size} payments final`,
  );
}

/** Whether the stage has settled the run: every payment read and final (a double charge never settles). */
export function remoteSettled(o: RemoteObserved): boolean {
  return nothingUnknown(o).ok;
}

/** The independent check of a run against a stage, from the public API and the PSP's records only. */
export function checkRemoteInvariants(o: RemoteObserved): InvariantResult[] {
  return [oneChargePerPayment(o), everyChargeHasPayment(o), everySuccessCharged(o), nothingUnknown(o)];
}
