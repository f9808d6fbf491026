import { type DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { LedgerPayment } from "./compare-records";
import type { ReadProgress } from "./reconcile-sources";

/**
 * The ledger's payment rows created since `sinceMs`. A scan: the ledger has no index by creation time, and this
 * runs once a night; its filter keeps only payment rows, so journal, locator and outbox items are read, not returned.
 */
export async function ledgerPayments(
  db: DynamoDBDocumentClient,
  table: string,
  sinceMs: number,
  progress: ReadProgress = () => undefined,
): Promise<LedgerPayment[]> {
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
