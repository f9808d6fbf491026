import type { DrillApi } from "../drills/drill-api";
import { type FinalCount, finalCount, formatCount } from "../drills/final-count";
import type { LocalStack } from "../stack/start-stack";

/** The story's final count: the drills' count, the stream job's totals and what became of the late original. */
export interface StoryCount extends FinalCount {
  /** m1's daily total in each Region's sink. */
  totals: { R1: number; R2: number };
  /** The late original's key: its answer to the stalled request and what resolve said (VOID). */
  k2: { state: string; status: number };
  /** Charges at the PSP for K2's payment (none). */
  k2Charges: number;
  /** Faults armed at the seed's moments that never fired: the story did not play what it says. */
  unfired?: string[];
}

/** Counts once both Regions have reconciled, as the seed's simulator counts. */
export async function storyCount(
  stack: LocalStack,
  api: DrillApi,
  o: { paymentId: string; merchant: string; caller: string; k2: { state: string; status: number } },
): Promise<StoryCount> {
  const base = await finalCount(stack, api, o);
  const totalIn = async (r: "R1" | "R2") => {
    const days = (await api.local(r, "GET", `/totals/${o.merchant}`)).body as unknown;
    return Array.isArray(days) ? days.reduce((a: number, d: { total: number }) => a + d.total, 0) : 0;
  };
  const all = stack.psp.charges() as Array<{ reference: string; amount: number }>;
  const k2Charges = all.filter((c) => c.reference !== o.paymentId && c.amount === 3_000).length;
  return { ...base, totals: { R1: await totalIn("R1"), R2: await totalIn("R2") }, k2: o.k2, k2Charges };
}

/** The seed's count: one charge, one credit (12,000 → 15,000), one notification, the total 15,000, K2 voided. */
export function isSeedCount(c: StoryCount): boolean {
  return (
    c.charges.length === 1 &&
    c.merchant.R1.balance === 15_000 &&
    c.merchant.R2.balance === 15_000 &&
    c.shown === 1 &&
    c.totals.R1 === 15_000 &&
    c.k2.state === "VOID" &&
    c.k2Charges === 0 &&
    (c.unfired ?? []).length === 0
  );
}

/** The count as lines to read at a glance. */
export function formatStoryCount(c: StoryCount): string {
  return [
    formatCount(c),
    `  m1's daily total       R1 ${c.totals.R1}, R2 ${c.totals.R2} (stream job sink)`,
    `  the late original (K2) answered ${c.k2.status}; resolve said ${c.k2.state}; charges for it: ${c.k2Charges}`,
    ...((c.unfired ?? []).length > 0 ? [`  faults that never fired ${c.unfired?.join(", ")}`] : []),
  ].join("\n");
}
