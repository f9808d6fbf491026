import type { PspCharge } from "./region-side";

/** Lists the PSP's charges created since `sinceS` (unix seconds), every page, through its Stripe-like list API. */
export async function listPspCharges(pspUrl: string, apiKey: string, sinceS: number): Promise<PspCharge[]> {
  const out: PspCharge[] = [];
  let after: string | undefined;
  for (let page = 0; page < 1_000; page++) {
    const url = new URL("/v1/charges", pspUrl);
    url.searchParams.set("limit", "100");
    if (after) url.searchParams.set("starting_after", after);
    const res = await fetch(url, {
      headers: { authorization: `Bearer ${apiKey}` },
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`the PSP's charge list answered HTTP ${res.status}`);
    const body = (await res.json()) as { data: Array<PspCharge & { status?: string }>; has_more: boolean };
    for (const c of body.data) if ((c.created ?? sinceS) >= sinceS && c.status !== "failed") out.push(c);
    if (!body.has_more || body.data.length === 0) return out;
    after = body.data.at(-1)?.id;
  }
  throw new Error("the PSP's charge list did not end after 1,000 pages");
}
