import { shardOf } from "../merchant/balance-shards";
import type { PaymentState } from "../payment/payment-state";

/**
 * How many partitions each list of the sparse index gsi1 (the outbox, and each open state the resolver reads) is
 * spread over, by default. One list under one key is one index partition, and a partition takes at most 1,000 write
 * units a second; its sort key is a time, always rising, so DynamoDB cannot split it for heat either. Each payment
 * costs a list 2 index writes (its entry, then the entry's removal, each under 1 KB), so one key caps a Region near
 * 500 payments/s. 8 keys lift that to about 4,000/s, as far as the ledger table's own default on-demand quota takes
 * it (40,000 write units/s per table, over the 10 base-table write units a payment costs it: guard 4, settle 4,
 * webhook 1, relay 1); more shards would not raise the ceiling before that quota is raised, and every reader pays one
 * query per shard (the resolver reads 4 states, 9 keys each with the earlier version's, each minute).
 *
 * The count is fixed for the ledger table's life: an entry stays in the shard its payment's id picks until its row
 * moves, so readers must always read every shard any writer used. Raising it means reading the old count's keys too
 * until they are empty.
 */
export const DEFAULT_INDEX_SHARDS = 8;

let counted: { raw: string | undefined; n: number } | undefined;

/**
 * The shard count from `LEDGER_INDEX_SHARDS`, or the default: every function of a deployment must be given the same
 * one (the chaos stacks use 2, as a schedule lists a handful of payments, and every reader's query per shard is most
 * of a simulated schedule's requests).
 */
export function indexShardCount(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.LEDGER_INDEX_SHARDS;
  if (counted !== undefined && counted.raw === raw) return counted.n;
  const n = raw === undefined || raw === "" ? DEFAULT_INDEX_SHARDS : Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64)
    throw new Error(`LEDGER_INDEX_SHARDS=${raw} must be an integer 1..64`);
  counted = { raw, n };
  return n;
}

/** The shard of a payment's index entries: a hash of its id, so every write of its row and its events picks the same. */
export const indexShardOf = (paymentId: string): number => shardOf(paymentId, indexShardCount());

const shardSuffix = (shard: number): string => `#S${String(shard).padStart(2, "0")}`;
const allShards = (): number[] => Array.from({ length: indexShardCount() }, (_, shard) => shard);

/** The outbox's single key before it was sharded; items an earlier version wrote (or is still writing) carry it. */
export const LEGACY_OUTBOX_INDEX_PK = "OUTBOX";
/** An open state's single key before it was sharded. */
export const legacySweepIndexPk = (state: PaymentState): string => `SWEEP#${state}`;

/** The outbox index key of a payment's events. */
export const outboxIndexPk = (paymentId: string): string =>
  `${LEGACY_OUTBOX_INDEX_PK}${shardSuffix(indexShardOf(paymentId))}`;

/** The sweep index key of a payment's row while it is open in `state`. */
export const sweepIndexPk = (state: PaymentState, paymentId: string): string =>
  `${legacySweepIndexPk(state)}${shardSuffix(indexShardOf(paymentId))}`;

/** Every outbox index key a reader must read: each shard, then the earlier version's single key. */
export const outboxIndexPks = (): string[] => [
  ...allShards().map((s) => `${LEGACY_OUTBOX_INDEX_PK}${shardSuffix(s)}`),
  LEGACY_OUTBOX_INDEX_PK,
];

/** Every sweep index key of `state` a reader must read: each shard, then the earlier version's single key. */
export const sweepIndexPks = (state: PaymentState): string[] => [
  ...allShards().map((s) => `${legacySweepIndexPk(state)}${shardSuffix(s)}`),
  legacySweepIndexPk(state),
];

/** Whether an item's gsi1pk lists it in the outbox (any shard, or the earlier single key). */
export const isOutboxIndexPk = (pk: unknown): boolean =>
  typeof pk === "string" && outboxIndexPks().includes(pk);

/** The key prefix of refund attempts marked in flight (their pending facts), until a resolver pass sees them over. */
export const REFUND_MARK_INDEX_PK = "REFUND_IN_FLIGHT";

/** The index key of a payment's refund-in-flight marks. */
export const refundMarkIndexPk = (paymentId: string): string =>
  `${REFUND_MARK_INDEX_PK}${shardSuffix(indexShardOf(paymentId))}`;

/** Every refund-in-flight mark key a reader must read (marks came with the shards: no earlier single key). */
export const refundMarkIndexPks = (): string[] =>
  allShards().map((s) => `${REFUND_MARK_INDEX_PK}${shardSuffix(s)}`);
