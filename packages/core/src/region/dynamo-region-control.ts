import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { RegionControl, RegionControlStore } from "./region-control";

/** The one item of a Region's control table. */
export const CONTROL_KEY = { pk: "REGION_CONTROL" } as const;

/** One Region's control record on a small table of its own (not global: each Region writes its copy itself). */
export class DynamoRegionControlStore implements RegionControlStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async read(): Promise<RegionControl | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.table, Key: CONTROL_KEY, ConsistentRead: true }),
    );
    if (!out.Item) return undefined;
    const { active, epoch, updated_at, reason } = out.Item;
    return { active, epoch: Number(epoch), updated_at: Number(updated_at), reason: String(reason ?? "") };
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
