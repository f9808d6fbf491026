import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { isConditionFailure } from "../aws/document-client";
import { HIGH_WATER_MARK, newerThanStored } from "./newer-version";
import type { ItemKey, Versioned, VersionedOutcome, VersionedStore } from "./versioned-store";

/**
 * A versioned value on one DynamoDB item: a conditional update on its high-water mark. The item gets no
 * `expires_at`, so the table's TTL never removes the mark a late resend must lose to.
 */
export class DynamoVersionedStore<T> implements VersionedStore<T> {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async applyIfNewer(key: ItemKey, version: number, value: T): Promise<VersionedOutcome<T>> {
    const newer = newerThanStored(version);
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key,
          UpdateExpression: "SET #hwm = :set, #value = :value",
          ConditionExpression: newer.expression,
          ExpressionAttributeNames: { ...newer.names, "#value": "value" },
          ExpressionAttributeValues: { ...newer.values, ":set": version, ":value": value },
        }),
      );
      return { applied: true };
    } catch (err) {
      // A failed condition on a resend is usually a success disguised as an error: answer what the item holds.
      if (isConditionFailure(err)) return { applied: false, current: await this.read(key) };
      throw err;
    }
  }

  async read(key: ItemKey): Promise<Versioned<T> | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }));
    return out.Item ? { version: Number(out.Item[HIGH_WATER_MARK]), value: out.Item.value as T } : undefined;
  }
}
