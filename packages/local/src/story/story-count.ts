import type { DrillApi } from "../drills/drill-api";
import { type FinalCount, finalCount, formatCount } from "../drills/final-count";
import type { LocalStack } from "../stack/start-stack";

/** The story's final count: the drills' count, the stream job's totals and what became of the late original. */
export interface StoryCount extends FinalCount {
  /** m1's daily total in each Region's sink. */
  totals: { R1: number; R2: number };
  /** m2's daily total in R1's sink: v1's wrong 500 is gone after the restore's full flush. */
  m2Total: number;
  /** The late original's key: its answer to the stalled request and what resolve said (VOID). */
  k2: { state: string; status: number };
  /** Charges at the PSP for K2's order (none). */
  k2Charges: number;
  /** Charges at the PSP for the order, under any payment id (one; Branch X makes a second). */
  orderCharges: number;
  /** Every notification on the buyer's screen, whatever its replace id (Branch N stacks them). */
  onScreen: number;
  /** Faults armed at the seed's moments that never fired: the story did not play what it says. */
  unfired?: string[];
}

/** Counts once both Regions have reconciled, as the seed's simulator counts. */
export async function storyCount(
  stack: LocalStack,
  api: DrillApi,
  o: {
    paymentId: string;
    merchant: string;
    m2: string;
    caller: string;
    k2: { state: string; status: number };
  },
): Promise<StoryCount> {
  const base = await finalCount(stack, api, o);
  const totalIn = async (r: "R1" | "R2", merchant = o.merchant) => {
    const days = (await api.local(r, "GET", `/totals/${merchant}`)).body as unknown;
    return Array.isArray(days) ? days.reduce((a: number, d: { total: number }) => a + d.total, 0) : 0;
  };
  const all = stack.psp.charges() as Array<{ reference: string; amount: number }>;
  // The story's amounts are its own: 3,000 for the order (pay_7), 2,500 for K2's; a second charge of either shows.
  const k2Charges = all.filter((c) => c.amount === 2_500).length;
  const orderCharges = all.filter((c) => c.amount === 3_000).length;
  const totals = { R1: await totalIn("R1"), R2: await totalIn("R2") };
  const screen = (await api.local("R1", "GET", `/devices/${o.caller}`)).body as { shown?: unknown[] };
  const onScreen = (screen.shown ?? []).length;
  return { ...base, totals, m2Total: await totalIn("R1", o.m2), k2: o.k2, k2Charges, orderCharges, onScreen };
}

/** The seed's count: one charge, one credit (12,000 → 15,000), one notification, the total 15,000, K2 voided. */
export function isSeedCount(c: StoryCount): boolean {
  return (
    c.charges.length === 1 &&
    c.orderCharges === 1 &&
    c.merchant.R1.balance === 15_000 &&
    c.merchant.R2.balance === 15_000 &&
    c.shown === 1 &&
    c.onScreen === 1 &&
    c.totals.R1 === 15_000 &&
    c.m2Total === 0 &&
    c.k2.state === "VOID" &&
    c.k2Charges === 0 &&
    (c.unfired ?? []).length === 0
  );
}

/** The count as lines to read at a glance. */
export function formatStoryCount(c: StoryCount): string {
  return [
    formatCount(c),
    `  charges for the order  ${c.orderCharges} (under any payment id); notifications on the screen ${c.onScreen}`,
    `  m1's daily total       R1 ${c.totals.R1}, R2 ${c.totals.R2} (stream job sink); m2's ${c.m2Total}`,
    `  the late original (K2) answered ${c.k2.status}; resolve said ${c.k2.state}; charges for it: ${c.k2Charges}`,
    ...((c.unfired ?? []).length > 0 ? [`  faults that never fired ${c.unfired?.join(", ")}`] : []),
  ].join("\n");
}
