import { createHash } from "node:crypto";

/**
 * How many partitions one merchant's credit records are spread over. One partition would take every credit of a
 * hot merchant, and a DynamoDB partition takes at most 1,000 write units a second (Part 6, "Shared limits"); each
 * credit record costs its partition 2 write units (one transactional write under 1 KB), so one partition tops
 * out near 500 credits/s and N shards near N × 500. Raising the count is safe at any time; lowering it is not,
 * because reads sum shards 0..N-1 only.
 */
export const DEFAULT_BALANCE_SHARDS = 16;

/** The shard count from `BALANCE_SHARDS`, or the default. */
export function balanceShardCount(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.BALANCE_SHARDS;
  if (raw === undefined || raw === "") return DEFAULT_BALANCE_SHARDS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1000)
    throw new Error(`BALANCE_SHARDS=${raw} must be an integer 1..1000`);
  return n;
}

/** The shard an event credits: a hash of its id, so that every retry of one event picks the same shard. */
export function shardOf(eventId: string, shards: number): number {
  const h = createHash("sha256").update(eventId).digest();
  return h.readUInt32BE(0) % shards;
}

/** The partition key of one shard: the shard's balance item and its credit records live there together. */
export const merchantShardPk = (merchantId: string, shard: number): string =>
  `MERCHANT#${merchantId}#S${String(shard).padStart(3, "0")}`;
