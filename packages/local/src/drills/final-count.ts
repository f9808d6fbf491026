import type { LocalStack } from "../stack/start-stack";
import type { DrillApi } from "./drill-api";

/** What a drill ends with, the way the seed's simulator counts it. */
export interface FinalCount {
  /** PSP charges for the payment (by our reference), with their ids. */
  charges: string[];
  /** The merchant in each Region: credit records and balance. */
  merchant: { R1: { credits: number; balance: number }; R2: { credits: number; balance: number } };
  /** Notifications on the buyer's screen for this payment, and how many alerts the phone raised. */
  shown: number;
  alerts: number;
  /** Receipts emailed to the buyer. */
  emails: number;
}

/** Counts once both Regions are up and replication is idle (the Regions have reconciled). */
export async function finalCount(
  stack: LocalStack,
  api: DrillApi,
  o: { paymentId: string; merchant: string; caller: string },
): Promise<FinalCount> {
  await stack.replicator?.awaitIdle(30_000);
  const charges = (stack.psp.charges() as Array<{ id: string; reference: string }>)
    .filter((c) => c.reference === o.paymentId)
    .map((c) => c.id);
  const merchantIn = async (r: "R1" | "R2") => {
    const m = (await api.local(r, "GET", `/merchants/${o.merchant}`)).body;
    return { credits: Number(m.credits ?? 0), balance: Number(m.balance ?? 0) };
  };
  const screen = (await api.local("R1", "GET", `/devices/${o.caller}`)).body as {
    shown?: Array<{ replace_id: string }>;
    alerts?: number;
  };
  const emails = (await api.local("R1", "GET", `/emails?to=${encodeURIComponent(`${o.caller}@example.com`)}`))
    .body;
  return {
    charges,
    merchant: { R1: await merchantIn("R1"), R2: await merchantIn("R2") },
    shown: (screen.shown ?? []).filter((s) => s.replace_id === o.paymentId).length,
    alerts: Number(screen.alerts ?? 0),
    emails: Array.isArray(emails) ? emails.length : Number((emails as { count?: number }).count ?? 0),
  };
}

/** The count as a few lines an on-call engineer reads at a glance. */
export function formatCount(c: FinalCount): string {
  return [
    `  charges at the PSP     ${c.charges.length}  (${c.charges.join(", ") || "none"})`,
    `  merchant in R1         ${c.merchant.R1.credits} credit record(s), balance ${c.merchant.R1.balance}`,
    `  merchant in R2         ${c.merchant.R2.credits} credit record(s), balance ${c.merchant.R2.balance}`,
    `  notifications shown    ${c.shown}  (alerts raised: ${c.alerts})`,
    `  receipts emailed       ${c.emails}`,
  ].join("\n");
}
