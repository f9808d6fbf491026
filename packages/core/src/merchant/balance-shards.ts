import { createHash } from "node:crypto";

/**
 * How many partitions one merchant's credit records are spread over. One partition would take every credit of a
 * hot merchant, and a DynamoDB partition takes at most 1,000 write units a second (Part 6, "Shared limits"); each
 * event's record costs its partition up to 3 write units (its put and the push's and the email's marks, each
 * under 1 KB), so one partition tops out near 333 credits/s and N shards near N × 333 (bench:credits prints the
 * arithmetic with the hottest shard's measured share).
 *
 * The count is fixed for the consumer table's life: an event's record is also its inbox entry, keyed by the shard
 * its id picks, so a worker counting differently would look for a redelivered event in another shard and credit
 * it again. Change it only on a new table, with the events queue and its DLQ empty.
 */
export const DEFAULT_BALANCE_SHARDS = 32;

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
