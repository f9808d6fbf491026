import { DeleteItemCommand, type DynamoDBClient, PutItemCommand } from "@aws-sdk/client-dynamodb";
import { imageCondition } from "./image-condition";
import { sameImage } from "./item-identity";
import type { ItemChange, ItemImage } from "./replication-types";
import { fromSdkImage, toSdkImage } from "./sdk-image";

/** What an apply did: changed the item, found it already so (no stream record then), or found a newer version. */
export type ApplyOutcome = "applied" | "unchanged" | "conflict";

/** Writes a shipped change into its target Region: PutItem of the new image, or DeleteItem for a REMOVE. */
export async function applyChange(
  ddb: DynamoDBClient,
  change: ItemChange,
  expected: ItemImage | undefined,
): Promise<ApplyOutcome> {
  const common = {
    TableName: change.table,
    // The old image says whether the table changed, and so whether a record comes back on the stream.
    ReturnValues: "ALL_OLD" as const,
    ...imageCondition(change.keys, expected),
  };
  try {
    const out = change.image
      ? await ddb.send(new PutItemCommand({ ...common, Item: toSdkImage(change.image) }))
      : await ddb.send(new DeleteItemCommand({ ...common, Key: toSdkImage(change.keys) }));
    return sameImage(fromSdkImage(out.Attributes), change.image) ? "unchanged" : "applied";
  } catch (err) {
    if ((err as { name?: string }).name === "ConditionalCheckFailedException") return "conflict";
    throw err;
  }
}
