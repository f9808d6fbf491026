import { DeleteCommand, type DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { OUTBOX_INDEX_PK, type OutboxItem, outboxKey, padTime } from "../ledger/ledger-items";

/** The outbox items in the ledger table, as the relay and the sweep see them. */
export interface OutboxStore {
  /** Deletes a sent item; deleting one that is already gone is fine. */
  remove(eventId: string): Promise<void>;
  /** Items created before `beforeMs`, oldest first, at most `limit`. */
  listOlderThan(beforeMs: number, limit: number): Promise<OutboxItem[]>;
}

/** The outbox on the ledger table: pk `OUTBOX#{event_id}`, and the sparse index gsi1 ("OUTBOX", created_at). */
export class DynamoOutboxStore implements OutboxStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async remove(eventId: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: outboxKey(eventId) }));
  }

  async listOlderThan(beforeMs: number, limit: number): Promise<OutboxItem[]> {
    const items: OutboxItem[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.db.send(
        new QueryCommand({
          TableName: this.table,
          IndexName: "gsi1",
          KeyConditionExpression: "gsi1pk = :pk AND gsi1sk < :before",
          ExpressionAttributeValues: { ":pk": OUTBOX_INDEX_PK, ":before": padTime(beforeMs) },
          Limit: limit - items.length,
          ExclusiveStartKey: start,
        }),
      );
      items.push(...((out.Items ?? []) as OutboxItem[]));
      start = out.LastEvaluatedKey;
    } while (start && items.length < limit);
    return items;
  }
}

/** Reads an outbox item out of a stream image (Lambda's JSON form: `{S: …}` / `{N: …}`). */
export function outboxItemFromImage(
  image: Record<string, { S?: string; N?: string }> | undefined,
): OutboxItem | undefined {
  const s = (name: string) => image?.[name]?.S;
  const n = (name: string) => (image?.[name]?.N === undefined ? undefined : Number(image[name]?.N));
  const eventId = s("event_id");
  if (!eventId || !s("pk")?.startsWith("OUTBOX#")) return undefined;
  const amount = n("amount");
  const createdAt = n("created_at");
  const fields = [s("payment_id"), s("merchant_id"), s("caller"), s("currency")];
  if (fields.some((f) => f === undefined) || amount === undefined || createdAt === undefined) {
    throw new Error(`outbox item ${eventId} is missing fields`);
  }
  // A type this relay does not know is a newer producer's: stop here rather than send it mislabelled.
  const type = s("type");
  if (type !== "payment.succeeded" && type !== "payment.refunded")
    throw new Error(`outbox item ${eventId} has unknown type ${type}`);
  const email = s("email");
  return {
    event_id: eventId,
    type,
    payment_id: s("payment_id") as string,
    merchant_id: s("merchant_id") as string,
    caller: s("caller") as string,
    ...(email ? { email } : {}),
    amount,
    currency: s("currency") as string,
    created_at: createdAt,
  };
}
