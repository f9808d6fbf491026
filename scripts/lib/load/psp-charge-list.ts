import { type PspDialect, stripePspCharges } from "@eo/core";

/** One charge as a Stripe-shaped `GET /v1/charges` lists it (the fields the remote check reads). */
export interface ListedCharge {
  id: string;
  /** Our reference (the payment id): the fake PSP's `reference`, or `metadata.reference` where a PSP keeps it there. */
  reference: string;
  amount: number;
  currency: string;
  status: string;
  refunded: boolean;
  created: number;
}

type RawCharge = Partial<Omit<ListedCharge, "reference">> & {
  id: string;
  reference?: string;
  metadata?: { reference?: string };
};

/** The most pages one listing reads (100 charges each): a bound, so a busy account cannot keep the check forever. */
const MAX_PAGES = 200;
/** Pause between pages: the listing shares the PSP's per-endpoint rate limit with the stage's own lookups. */
const PAGE_GAP_MS = 250;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * Every charge the PSP account holds created at or after `sinceUnixS`, failed ones included, read page by page
 * (`created[gte]`, `limit=100`, `starting_after`) as Stripe pages a list; a 429 waits its `Retry-After` and asks again.
 */
export async function listChargesSince(
  psp: { url: string; apiKey: string; psp?: PspDialect },
  sinceUnixS: number,
): Promise<ListedCharge[]> {
  // A Stripe stage: its PaymentIntents, every page, through the SDK (which waits out a 429 itself).
  if (psp.psp === "stripe") return stripePspCharges(psp.url, psp.apiKey, sinceUnixS);
  const all: ListedCharge[] = [];
  let after = "";
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = `created%5Bgte%5D=${sinceUnixS}&limit=100${after ? `&starting_after=${encodeURIComponent(after)}` : ""}`;
    const body = await getPage(`${psp.url.replace(/\/+$/, "")}/v1/charges?${query}`, psp.apiKey);
    all.push(...body.data.map(toListed));
    const last = body.data[body.data.length - 1];
    if (!body.has_more || !last) return all;
    after = last.id;
    await sleep(PAGE_GAP_MS);
  }
  throw new Error(
    `the PSP's charge list ran past ${MAX_PAGES} pages; start the check later or use a quieter account`,
  );
}

async function getPage(url: string, apiKey: string): Promise<{ data: RawCharge[]; has_more: boolean }> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(url, {
      headers: { authorization: `Bearer ${apiKey}`, "user-agent": "effectively-once load check" },
      signal: AbortSignal.timeout(15_000),
    });
    if (res.status === 429 && attempt < 6) {
      await sleep(Math.min(10_000, Number(res.headers.get("retry-after") ?? 1) * 1000));
      continue;
    }
    if (!res.ok) throw new Error(`the PSP's charge list answered ${res.status}`);
    const body = (await res.json()) as { data?: RawCharge[]; has_more?: boolean };
    return { data: body.data ?? [], has_more: body.has_more === true };
  }
}

function toListed(c: RawCharge): ListedCharge {
  return {
    id: c.id,
    reference: c.reference ?? c.metadata?.reference ?? "",
    amount: c.amount ?? 0,
    currency: c.currency ?? "",
    status: c.status ?? "succeeded",
    refunded: c.refunded === true,
    created: c.created ?? 0,
  };
}
