import { type DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { merchantShardPk } from "./balance-shards";

/**
 * A merchant's balance summed over its shards: per currency, and as one number when there is one currency. A
 * refund leaves its payment's credit record in place and adds a debit record, so `credits` counts the payments
 * applied (each once) and `debits` the refunds applied (each once).
 */
export interface MerchantBalance {
  /** Credits less debits, in minor units, when everything is in one currency (0 with none), else null. */
  balance: number | null;
  /** The count of credit records (succeeded payments applied). */
  credits: number;
  /** The count of debit records (refunds applied). */
  debits: number;
  balances: Record<string, number>;
}

/** One credit record, as the worker wrote it beside its shard's balance item. */
export interface CreditRecord {
  event_id: string;
  payment_id: string;
  merchant_id: string;
  amount: number;
  currency: string;
  applied_at: number;
}

/** Sums the credit and debit records of every shard of a merchant, in parallel. */
export async function readMerchantBalance(
  db: DynamoDBDocumentClient,
  table: string,
  merchantId: string,
  shards: number,
): Promise<MerchantBalance> {
  const parts = await Promise.all(
    Array.from({ length: shards }, (_, s) => readShard(db, table, merchantShardPk(merchantId, s))),
  );
  const balances: Record<string, number> = {};
  let credits = 0;
  let debits = 0;
  for (const part of parts) {
    credits += part.credits;
    debits += part.debits;
    for (const [currency, amount] of Object.entries(part.balances)) {
      balances[currency] = (balances[currency] ?? 0) + amount;
    }
  }
  const currencies = Object.keys(balances);
  const balance =
    currencies.length === 0 ? 0 : currencies.length === 1 ? (balances[currencies[0] as string] ?? 0) : null;
  return { balance, credits, debits, balances };
}

/** Lists a merchant's credit records over every shard, oldest application first (for audits and tests). */
export async function listCredits(
  db: DynamoDBDocumentClient,
  table: string,
  merchantId: string,
  shards: number,
): Promise<CreditRecord[]> {
  const pages = await Promise.all(
    Array.from({ length: shards }, (_, s) => queryAll(db, table, merchantShardPk(merchantId, s), "CREDIT#")),
  );
  return (pages.flat() as unknown as CreditRecord[]).sort((a, b) => a.applied_at - b.applied_at);
}

// The balance is the sum of the records, each written whole under its event id; no item holds a running total,
// because two Regions that both add to one total during a failover lose one of the adds to last-writer-wins.
async function readShard(db: DynamoDBDocumentClient, table: string, pk: string) {
  const [credits, debits] = await Promise.all([
    queryAll(db, table, pk, "CREDIT#"),
    queryAll(db, table, pk, "DEBIT#"),
  ]);
  const balances: Record<string, number> = {};
  for (const [records, sign] of [
    [credits, 1],
    [debits, -1],
  ] as const) {
    for (const r of records) {
      const currency = String(r.currency);
      balances[currency] = (balances[currency] ?? 0) + sign * Number(r.amount);
    }
  }
  return { balances, credits: credits.length, debits: debits.length };
}

type RecordPrefix = "CREDIT#" | "DEBIT#";

async function queryAll(
  db: DynamoDBDocumentClient,
  table: string,
  pk: string,
  prefix: RecordPrefix,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const page of recordPages(db, table, pk, prefix, "ALL_ATTRIBUTES"))
    items.push(...(page.Items ?? []));
  return items;
}

async function* recordPages(
  db: DynamoDBDocumentClient,
  table: string,
  pk: string,
  prefix: RecordPrefix,
  select: "COUNT" | "ALL_ATTRIBUTES",
) {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues: { ":pk": pk, ":prefix": prefix },
        Select: select,
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    yield page;
    start = page.LastEvaluatedKey;
  } while (start);
}
