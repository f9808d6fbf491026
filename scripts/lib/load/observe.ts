import type { Observed } from "./invariants";
import type { BacklogView, LocalApi } from "./local-api";
import type { PhoneRecord } from "./phone";

type Row = { state: string; psp_charge?: string; amount?: number; merchant_id?: string };
type Screen = {
  shown: Array<{ replace_id: string | null }>;
  alerts: number;
  first_shown_at?: Record<string, number>;
};

/** Runs `f` over `items`, `width` at a time. */
async function eachLimited<T>(items: T[], width: number, f: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await f(items[next++] as T);
    }),
  );
}

/** The PSP's succeeded charges (`/_local/psp/charges`). */
export async function pspCharges(api: LocalApi): Promise<Observed["charges"]> {
  return (await api.get<Observed["charges"]>("/_local/psp/charges")).body;
}

/**
 * A phone that never heard its payment id (every answer lost or timed out) asks "did it go through?" once more
 * with its key, as a buyer coming back would; an absent key becomes VOID, which after the run changes nothing.
 */
async function askUnheard(
  api: LocalApi,
  phones: PhoneRecord[],
  tokenOf: (caller: string) => Promise<string>,
): Promise<void> {
  const unheard = phones.filter((p) => p.key && p.payment_ids.size === 0 && !p.askedAfterRun);
  await eachLimited(unheard, 8, async (p) => {
    const res = await fetch(`${api.baseUrl}/payments/resolve`, {
      method: "POST",
      headers: { authorization: `Bearer ${await tokenOf(p.caller)}`, "idempotency-key": p.key as string },
      signal: AbortSignal.timeout(15_000),
    }).catch(() => undefined);
    const body = (await res?.json().catch(() => ({}))) as { payment_id?: string } | undefined;
    // Asked once it answered: a stack too busy to answer is asked again on the next pass.
    if (res?.ok) p.askedAfterRun = true;
    if (body?.payment_id) p.payment_ids.add(body.payment_id);
  });
}

/** Reads what the PSP and the ledger recorded about the run's phones, callers and merchants. */
export async function observe(
  api: LocalApi,
  phones: PhoneRecord[],
  merchants: string[],
  tokenOf: (caller: string) => Promise<string>,
  chargesBefore: Set<string>,
): Promise<Observed & { firstShownAt: Map<string, number> }> {
  await askUnheard(api, phones, tokenOf);
  // Every charge the PSP made since the run began, whoever asked for it: a charge no phone heard of is a finding.
  const charges = (await pspCharges(api)).filter((c) => !chargesBefore.has(c.id));
  const rows = new Map<string, Row>();
  const owned = phones.flatMap((p) => [...p.payment_ids].map((id) => ({ id, caller: p.caller })));
  await eachLimited(owned, 16, async ({ id, caller }) => {
    const got = await api.get<Row>(`/payments/${id}`, await tokenOf(caller));
    if (got.status === 200) rows.set(id, got.body);
  });
  const merchantViews = new Map<string, { balance: number; credits: number }>();
  await eachLimited(merchants, 16, async (m) => {
    merchantViews.set(
      m,
      (await api.get<{ balance: number; credits: number }>(`/_local/merchants/${m}`)).body,
    );
  });
  const screens = new Map<string, { shown: Set<string>; alerts: number }>();
  const firstShownAt = new Map<string, number>();
  await eachLimited([...new Set(phones.map((p) => p.caller))], 16, async (caller) => {
    const view = (await api.get<Screen>(`/_local/devices/${encodeURIComponent(caller)}`)).body;
    screens.set(caller, {
      shown: new Set(view.shown.flatMap((s) => (s.replace_id ? [s.replace_id] : []))),
      alerts: view.alerts,
    });
    for (const [id, at] of Object.entries(view.first_shown_at ?? {})) firstShownAt.set(id, at);
  });
  const backlog = (await api.get<BacklogView>("/_local/backlog")).body.total;
  return { phones, charges, rows, merchants: merchantViews, screens, backlog, firstShownAt };
}
