import type { PhoneRecord } from "./phone";
import type { InvariantResult } from "./report-types";

/** What the independent check reads after the run: the PSP's records and the ledger's, never our domain code. */
export interface Observed {
  phones: PhoneRecord[];
  /** The PSP's succeeded charges (`/_local/psp/charges`). */
  charges: Array<{ id: string; reference: string; amount: number; currency: string; refunded: boolean }>;
  /** The ledger's row of each payment a phone heard of (`GET /payments/{id}` as its owner). */
  rows: Map<string, { state: string; psp_charge?: string; amount?: number; merchant_id?: string }>;
  /** Each merchant's balance and count of credit records (`/_local/merchants/{id}`). */
  merchants: Map<string, { balance: number; credits: number }>;
  /** The payment ids shown on each caller's phone (`/_local/devices/{caller}`), and its alerts. */
  screens: Map<string, { shown: Set<string>; alerts: number }>;
  /** Payments still PENDING or UNKNOWN in the ledger's sweep index (`/_local/backlog`). */
  backlog: number;
}

const FINAL = new Set(["SUCCEEDED", "FAILED", "REFUNDED"]);
const MAX_SHOWN = 5;

function result(name: string, bad: string[], counted: string): InvariantResult {
  const first = bad.slice(0, MAX_SHOWN).join("; ");
  return {
    name,
    ok: bad.length === 0,
    detail: bad.length === 0 ? counted : `${bad.length} broken: ${first}`,
  };
}

/** At most one PSP charge per (caller, key), so at most one per payment id (the reference), and one per order. */
function oneChargePerKey(o: Observed): InvariantResult {
  const perRef = new Map<string, number>();
  for (const c of o.charges) perRef.set(c.reference, (perRef.get(c.reference) ?? 0) + 1);
  const orderOf = new Map(o.phones.flatMap((p) => [...p.payment_ids].map((id) => [id, p.order.order_id])));
  const perOrder = new Map<string, number>();
  for (const c of o.charges) {
    const order = orderOf.get(c.reference) ?? c.reference;
    perOrder.set(order, (perOrder.get(order) ?? 0) + 1);
  }
  const bad = [...perRef, ...perOrder].filter(([, n]) => n > 1).map(([id, n]) => `${id} charged ${n} times`);
  return result(
    "at most one charge per (caller, key)",
    bad,
    `${o.charges.length} charges, ${perRef.size} references`,
  );
}

/** Every PSP charge has a SUCCEEDED ledger row that names it: no lost payment. */
function everyChargeInLedger(o: Observed): InvariantResult {
  const bad = o.charges.flatMap((c) => {
    const row = o.rows.get(c.reference);
    if (!row) return [`charge ${c.id} (${c.reference}) has no ledger row`];
    if (row.state !== "SUCCEEDED" || row.psp_charge !== c.id)
      return [`charge ${c.id}: ledger says ${row.state}`];
    return [];
  });
  return result("every charge has a SUCCEEDED ledger row", bad, `${o.charges.length} charges matched`);
}

/** Every SUCCEEDED payment is credited once: each merchant's credits and balance equal its payments. */
function creditedOnce(o: Observed): InvariantResult {
  const want = new Map<string, { n: number; sum: number }>();
  for (const row of o.rows.values()) {
    if (row.state !== "SUCCEEDED" || !row.merchant_id) continue;
    const w = want.get(row.merchant_id) ?? { n: 0, sum: 0 };
    want.set(row.merchant_id, { n: w.n + 1, sum: w.sum + (row.amount ?? 0) });
  }
  const bad = [...new Set([...want.keys(), ...o.merchants.keys()])].flatMap((m) => {
    const w = want.get(m) ?? { n: 0, sum: 0 };
    const got = o.merchants.get(m) ?? { balance: 0, credits: 0 };
    return got.credits === w.n && got.balance === w.sum
      ? []
      : [`${m}: ${got.credits} credits / ${got.balance} for ${w.n} payments / ${w.sum}`];
  });
  const n = [...want.values()].reduce((a, w) => a + w.n, 0);
  return result("every SUCCEEDED payment credited once", bad, `${n} credits over ${want.size} merchants`);
}

/** Every SUCCEEDED payment was shown on its buyer's phone. */
function notified(o: Observed): InvariantResult {
  const bad = o.phones.flatMap((p) => {
    if (!p.payment_id || o.rows.get(p.payment_id)?.state !== "SUCCEEDED") return [];
    return o.screens.get(p.caller)?.shown.has(p.payment_id)
      ? []
      : [`${p.payment_id} not shown to ${p.caller}`];
  });
  const shown = [...o.screens.values()].reduce((a, s) => a + s.shown.size, 0);
  return result("every SUCCEEDED payment notified", bad, `${shown} notifications shown`);
}

/** Nothing is left unknown, and no buyer was told something the ledger contradicts. */
function nothingUnknown(o: Observed): InvariantResult {
  const bad = [...o.rows].filter(([, r]) => !FINAL.has(r.state)).map(([id, r]) => `${id} is ${r.state}`);
  if (o.backlog > 0) bad.push(`${o.backlog} payments still in the resolver's index`);
  for (const p of o.phones) {
    const state = p.payment_id ? o.rows.get(p.payment_id)?.state : undefined;
    if (p.outcome === "succeeded" && state !== "SUCCEEDED")
      bad.push(`${p.order.order_id} heard 201, ledger ${state}`);
    if (p.outcome === "declined" && state !== "FAILED")
      bad.push(`${p.order.order_id} heard 402, ledger ${state}`);
  }
  return result(
    "no payment left unknown; answers agree with the ledger",
    bad,
    `${o.rows.size} payments final`,
  );
}

/**
 * The checks that say the stack has settled: nothing unknown and every success on its phone. A double charge
 * never settles, so the quiesce does not wait for the other checks.
 */
export function checkSettled(o: Observed): boolean {
  return notified(o).ok && nothingUnknown(o).ok;
}

/** The independent check of the run, from what the PSP and the ledger recorded. */
export function checkInvariants(o: Observed): InvariantResult[] {
  return [oneChargePerKey(o), everyChargeInLedger(o), creditedOnce(o), notified(o), nothingUnknown(o)];
}
