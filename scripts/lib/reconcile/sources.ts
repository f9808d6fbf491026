import { type DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { LedgerPayment, PspChargeRecord } from "./compare";

/**
 * Every PSP charge created since `sinceS` (unix seconds), failed ones included, every page of its Stripe-like list
 * API; the reconcile and the failover's verification both read the PSP through it.
 */
export async function pspCharges(
  pspUrl: string,
  apiKey: string,
  sinceS: number,
  progress: (n: number) => void = () => undefined,
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

/**
 * The ledger's payment rows created since `sinceMs`. A scan: the ledger has no index by creation time, and this
 * runs once a night; its filter keeps only payment rows, so journal, locator and outbox items are read, not returned.
 */
export async function ledgerPayments(
  db: DynamoDBDocumentClient,
  table: string,
  sinceMs: number,
  progress: (n: number) => void,
) {
  const out: LedgerPayment[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: table,
        FilterExpression: "sk = :payment AND created_at >= :since",
        ExpressionAttributeValues: { ":payment": "PAYMENT", ":since": sinceMs },
        ProjectionExpression: "payment_id, #s, amount, currency, psp_charge, created_at",
        ExpressionAttributeNames: { "#s": "state" },
        ExclusiveStartKey: start,
      }),
    );
    out.push(...((page.Items ?? []) as LedgerPayment[]));
    progress(out.length);
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}
