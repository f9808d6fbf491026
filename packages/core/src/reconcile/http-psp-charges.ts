import type { PspChargeRecord } from "./compare-records";
import type { ReadProgress } from "./reconcile-sources";

/**
 * Every PSP charge created since `sinceS` (unix seconds), failed ones included, every page of its Stripe-like list
 * API; the reconcile and the failover's verification both read the PSP through it.
 */
export async function pspCharges(
  pspUrl: string,
  apiKey: string,
  sinceS: number,
  progress: ReadProgress = () => undefined,
): Promise<PspChargeRecord[]> {
  const out: PspChargeRecord[] = [];
  let after: string | undefined;
  for (;;) {
    const url = new URL("/v1/charges", pspUrl);
    url.searchParams.set("limit", "100");
    url.searchParams.set("created[gte]", String(sinceS));
    if (after) url.searchParams.set("starting_after", after);
    const res = await fetch(url, {
      headers: { authorization: `Bearer ${apiKey}` },
      signal: AbortSignal.timeout(15_000),
    });
    if (!res.ok) throw new Error(`the PSP's charge list answered HTTP ${res.status}`);
    const page = (await res.json()) as { data: PspChargeRecord[]; has_more: boolean };
    out.push(...page.data.filter((c) => c.created >= sinceS));
    progress(out.length);
    if (!page.has_more || page.data.length === 0) return out;
    after = page.data.at(-1)?.id;
  }
}
