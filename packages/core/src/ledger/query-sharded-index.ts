import { type DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { padTime } from "./ledger-items";
import { mergeOldestFirst, type PageReader } from "./merge-oldest-first";

/** Which entries of the sparse index gsi1 to list: every key of one list (its shards), and how far. */
export interface ShardedIndexQuery {
  table: string;
  keys: readonly string[];
  /** Only entries whose time is before this (absent: all). */
  beforeMs?: number;
  limit: number;
}

/** The oldest `limit` entries over every key of one list of gsi1, each key read page by page (DynamoDB adapter). */
export async function queryShardedIndex(
  db: DynamoDBDocumentClient,
  q: ShardedIndexQuery,
): Promise<Array<Record<string, unknown>>> {
  const readers = q.keys.map((key) => pageOf(db, q, key));
  return mergeOldestFirst(readers, (item) => String(item.gsi1sk), q.limit);
}

function pageOf(
  db: DynamoDBDocumentClient,
  q: ShardedIndexQuery,
  key: string,
): PageReader<Record<string, unknown>> {
  const before = q.beforeMs === undefined ? "" : " AND gsi1sk < :before";
  return async (start, limit) => {
    const out = await db.send(
      new QueryCommand({
        TableName: q.table,
        IndexName: "gsi1",
        KeyConditionExpression: `gsi1pk = :pk${before}`,
        ExpressionAttributeValues: {
          ":pk": key,
          ...(q.beforeMs === undefined ? {} : { ":before": padTime(q.beforeMs) }),
        },
        Limit: limit,
        ExclusiveStartKey: start,
      }),
    );
    return { items: (out.Items ?? []) as Array<Record<string, unknown>>, next: out.LastEvaluatedKey };
  };
}
