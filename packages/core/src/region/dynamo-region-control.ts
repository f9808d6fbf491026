import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { RegionControl, RegionControlStore } from "./region-control";

/** The one item of a control table. */
export const CONTROL_KEY = { pk: "REGION_CONTROL" } as const;

/**
 * The Region control on a small DynamoDB table: in AWS the authority (an MRSC table, whose strongly consistent
 * read and conditional write see the latest value in every replica Region), locally the authority or a copy.
 */
export class DynamoRegionControlStore implements RegionControlStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async read(options?: { abortSignal?: AbortSignal }): Promise<RegionControl | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.table, Key: CONTROL_KEY, ConsistentRead: true }),
      options?.abortSignal ? { abortSignal: options.abortSignal } : {},
    );
    if (!out.Item) return undefined;
    const { active, epoch, updated_at, reason, active_from, drains } = out.Item;
    return {
      active,
      epoch: Number(epoch),
      updated_at: Number(updated_at),
      reason: String(reason ?? ""),
      ...(active_from !== undefined ? { active_from: Number(active_from) } : {}),
      ...(drains !== undefined ? { drains } : {}),
    };
  }

  /**
   * The authority's side of the clock: a strongly consistent read whose reply's `Date` header is kept, with this
   * machine's time around it (the failover stamps `active_from` on it, not on a laptop's clock alone).
   */
  async clock(): Promise<{ serverDateMs: number; sentMs: number; receivedMs: number } | undefined> {
    const get = new GetCommand({ TableName: this.table, Key: CONTROL_KEY, ConsistentRead: true });
    let date: string | undefined;
    get.middlewareStack.add(
      (next) => async (args) => {
        const out = await next(args);
        date = (out.response as { headers?: Record<string, string> }).headers?.date;
        return out;
      },
      { step: "deserialize" },
    );
    const sentMs = Date.now();
    await this.db.send(get);
    const receivedMs = Date.now();
    const serverDateMs = date ? Date.parse(date) : Number.NaN;
    return Number.isFinite(serverDateMs) ? { serverDateMs, sentMs, receivedMs } : undefined;
  }

  async write(next: RegionControl): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...CONTROL_KEY, ...next },
          ConditionExpression: "attribute_not_exists(pk) OR epoch < :epoch",
          ExpressionAttributeValues: { ":epoch": next.epoch },
        }),
      );
      return true;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  }
}
