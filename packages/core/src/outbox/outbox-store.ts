import { DeleteCommand, type DynamoDBDocumentClient, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { isConditionFailure } from "../aws/document-client";
import { outboxIndexPks } from "../ledger/index-shards";
import { type OutboxItem, outboxKey } from "../ledger/ledger-items";
import { queryShardedIndex } from "../ledger/query-sharded-index";
import { PAYMENT_EVENT_TYPES } from "./payment-event";

/** The outbox items in the ledger table, as the relay and the sweep see them. */
export interface OutboxStore {
  /** Takes a sent event out of the outbox; one that is already out is fine. */
  remove(item: OutboxItem): Promise<void>;
  /** Items created before `beforeMs`, oldest first over every shard of the outbox list, at most `limit`. */
  listOlderThan(beforeMs: number, limit: number): Promise<OutboxItem[]>;
}

/**
 * The outbox on the ledger table: each event rides on the journal entry written with its move, listed in the
 * sparse index gsi1 (`OUTBOX#S{shard of its payment}`, created_at) until it is sent; a caught-up move's event is an
 * item of its own (pk `OUTBOX#{event_id}`), listed the same way. Items an earlier version listed under the single
 * key `OUTBOX` are read too (`index-shards.ts`).
 */
export class DynamoOutboxStore implements OutboxStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async remove(item: OutboxItem): Promise<void> {
    if (!item.entry) {
      await this.db.send(new DeleteCommand({ TableName: this.table, Key: outboxKey(item.event_id) }));
      return;
    }
    // The journal entry stays for ever; only its index entry goes (1 write unit, and the index's removal).
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: item.entry,
          UpdateExpression: "REMOVE gsi1pk, gsi1sk",
          ConditionExpression: "attribute_exists(gsi1pk)",
        }),
      );
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
  }

  async listOlderThan(beforeMs: number, limit: number): Promise<OutboxItem[]> {
    const keys = outboxIndexPks();
    return (await queryShardedIndex(this.db, { table: this.table, keys, beforeMs, limit })).map(withEntry);
  }
}

// An event listed from a journal entry is taken off that entry once sent.
function withEntry(item: Record<string, unknown>): OutboxItem {
  const { pk, sk, gsi1pk: _p, gsi1sk: _s, legs: _l, at: _a, ...event } = item;
  const entry = String(sk).startsWith("JOURNAL#") ? { entry: { pk: String(pk), sk: String(sk) } } : {};
  return { ...(event as unknown as OutboxItem), ...entry };
}

/** Reads an outbox item out of a stream image (Lambda's JSON form: `{S: …}` / `{N: …}`). */
export function outboxItemFromImage(
  image: Record<string, { S?: string; N?: string; BOOL?: boolean }> | undefined,
): OutboxItem | undefined {
  const s = (name: string) => image?.[name]?.S;
  const n = (name: string) => (image?.[name]?.N === undefined ? undefined : Number(image[name]?.N));
  const eventId = s("event_id");
  const pk = s("pk");
  const sk = s("sk");
  const onEntry = sk?.startsWith("JOURNAL#") === true;
  if (!eventId || !(pk?.startsWith("OUTBOX#") || onEntry)) return undefined;
  const amount = n("amount");
  const createdAt = n("created_at");
  const fields = [s("payment_id"), s("merchant_id"), s("caller"), s("currency")];
  if (fields.some((f) => f === undefined) || amount === undefined || createdAt === undefined) {
    throw new Error(`outbox item ${eventId} is missing fields`);
  }
  // A type this relay does not know is a newer producer's: stop here rather than send it mislabelled.
  const type = s("type");
  if (!PAYMENT_EVENT_TYPES.includes(type as OutboxItem["type"]))
    throw new Error(`outbox item ${eventId} has unknown type ${type}`);
  const email = s("email");
  return {
    event_id: eventId,
    type: type as OutboxItem["type"],
    payment_id: s("payment_id") as string,
    merchant_id: s("merchant_id") as string,
    caller: s("caller") as string,
    ...(email ? { email } : {}),
    amount,
    currency: s("currency") as string,
    created_at: createdAt,
    ...(s("origin_region") ? { origin_region: s("origin_region") as OutboxItem["origin_region"] } : {}),
    ...(image?.notice_only?.BOOL === true ? { notice_only: true as const } : {}),
    ...(onEntry ? { entry: { pk: pk as string, sk: sk as string } } : {}),
  };
}
