import type { PhoneRecord } from "./phone";
import { type ListedCharge, listChargesSince } from "./psp-charge-list";

/** A payment as its owner reads it through the public API (`GET /payments/{id}`). */
export type PublicPayment = { state: string; psp_charge?: string; amount?: number; merchant_id?: string };

/** What the remote check reads after a run against a stage: only the public API and the PSP's own records. */
export interface RemoteObserved {
  phones: PhoneRecord[];
  /** The PSP's charges created since the run began and not there before it, failed ones included. */
  charges: ListedCharge[];
  /** Each payment a phone heard of or a charge names, as the caller reads it (200). */
  rows: Map<string, PublicPayment>;
  /** Payment ids the API answered 404 for: no payment of this caller (or none at all). */
  absent: Set<string>;
  /** Payment ids the API did not answer for (timeouts, 5xx): not judged as present or absent. */
  unread: Set<string>;
}

/** How to reach the stage: its API with the caller token, and the PSP's records. */
export interface RemoteAccess {
  apiUrl: string;
  token: string;
  psp: { url: string; apiKey: string };
}

/** Runs `f` over `items`, `width` at a time. */
async function eachLimited<T>(items: T[], width: number, f: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await f(items[next++] as T);
    }),
  );
}

/**
 * A phone that never heard its payment id asks "did it go through?" once with its key (`POST /payments/resolve`),
 * as a buyer coming back would; an absent key becomes VOID, which after the run changes nothing.
 */
async function askUnheard(a: RemoteAccess, phones: PhoneRecord[]): Promise<void> {
  const unheard = phones.filter((p) => p.key && p.payment_ids.size === 0 && !p.askedAfterRun);
  await eachLimited(unheard, 4, async (p) => {
    const res = await fetch(`${a.apiUrl}/payments/resolve`, {
      method: "POST",
      headers: { authorization: `Bearer ${a.token}`, "idempotency-key": p.key as string },
      signal: AbortSignal.timeout(15_000),
    }).catch(() => undefined);
    const body = (await res?.json().catch(() => ({}))) as { payment_id?: string } | undefined;
    if (res?.ok) p.askedAfterRun = true;
    if (body?.payment_id) p.payment_ids.add(body.payment_id);
  });
}

async function readPayment(a: RemoteAccess, id: string): Promise<{ status: number; body?: PublicPayment }> {
  const res = await fetch(`${a.apiUrl}/payments/${encodeURIComponent(id)}`, {
    headers: { authorization: `Bearer ${a.token}` },
    signal: AbortSignal.timeout(15_000),
  }).catch(() => undefined);
  if (!res) return { status: 0 };
  return { status: res.status, body: (await res.json().catch(() => undefined)) as PublicPayment | undefined };
}

/** The ids of the PSP's charges already there before the run, so that the check counts only the run's. */
export async function chargesBefore(a: RemoteAccess, sinceUnixS: number): Promise<Set<string>> {
  return new Set((await listChargesSince(a.psp, sinceUnixS)).map((c) => c.id));
}

/**
 * Reads what the PSP and the public API say about the run: the PSP's new charges since `sinceUnixS`, and every
 * payment a phone heard of or a charge names, read by its owner (the caller token).
 */
export async function observeRemote(
  a: RemoteAccess,
  phones: PhoneRecord[],
  before: Set<string>,
  sinceUnixS: number,
): Promise<RemoteObserved> {
  await askUnheard(a, phones);
  const charges = (await listChargesSince(a.psp, sinceUnixS)).filter((c) => !before.has(c.id));
  const ids = new Set([...phones.flatMap((p) => [...p.payment_ids]), ...charges.map((c) => c.reference)]);
  ids.delete("");
  const rows = new Map<string, PublicPayment>();
  const absent = new Set<string>();
  const unread = new Set<string>();
  await eachLimited([...ids], 8, async (id) => {
    const got = await readPayment(a, id);
    if (got.status === 200 && got.body) rows.set(id, got.body);
    else if (got.status === 404) absent.add(id);
    else unread.add(id);
  });
  return { phones, charges, rows, absent, unread };
}
