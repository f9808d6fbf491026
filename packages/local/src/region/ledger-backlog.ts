import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { countLedgerIndex, sweepIndexPks } from "@eo/core";

const STATES = ["PENDING", "UNKNOWN", "REFUND_PENDING", "REFUND_UNKNOWN"] as const;

/** How many payments each not-yet-final state holds, counted on the ledger's sparse sweep index. */
export type LedgerBacklog = Record<(typeof STATES)[number], number> & { total: number };

/**
 * Counts the payments a resolver pass could still have to settle (`GET /_local/backlog`): the load test's
 * "unknown backlog", read from the same sparse index the resolver reads, every shard and every page of it.
 */
export async function readLedgerBacklog(db: DynamoDBDocumentClient, table: string): Promise<LedgerBacklog> {
  const counts = await Promise.all(STATES.map((state) => countLedgerIndex(db, table, sweepIndexPks(state))));
  const out = Object.fromEntries(STATES.map((s, i) => [s, counts[i] ?? 0])) as LedgerBacklog;
  out.total = counts.reduce((a, b) => a + b, 0);
  return out;
}
