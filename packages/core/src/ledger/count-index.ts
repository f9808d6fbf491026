import { type DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";

/** Counts the ledger's entries under each key of its sparse index `gsi1` (every page), for backlogs and checks. */
export async function countLedgerIndex(
  db: DynamoDBDocumentClient,
  table: string,
  keys: string[],
): Promise<number> {
  let n = 0;
  for (const key of keys) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db.send(
        new QueryCommand({
          TableName: table,
          IndexName: "gsi1",
          KeyConditionExpression: "gsi1pk = :pk",
          ExpressionAttributeValues: { ":pk": key },
          Select: "COUNT",
          ExclusiveStartKey: start,
        }),
      );
      n += page.Count ?? 0;
      start = page.LastEvaluatedKey;
    } while (start);
  }
  return n;
}
