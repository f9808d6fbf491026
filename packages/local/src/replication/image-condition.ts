import type { ItemImage } from "./replication-types";
import { toSdkImage } from "./sdk-image";

/** Past this many attributes the condition only checks that the item exists (expressions are limited to 4 KB). */
const MAX_COMPARED_ATTRIBUTES = 100;

/**
 * The condition that the target item is still the version the replicator last knew of (absent, or every known
 * attribute equal), so that an apply never overwrites a write made in the target that its stream has not shown yet.
 */
export function imageCondition(keys: ItemImage, expected: ItemImage | undefined) {
  const keyName = Object.keys(keys)[0] ?? "";
  if (!expected) {
    return { ConditionExpression: "attribute_not_exists(#k)", ExpressionAttributeNames: { "#k": keyName } };
  }
  const entries = Object.entries(expected);
  if (entries.length > MAX_COMPARED_ATTRIBUTES) {
    return { ConditionExpression: "attribute_exists(#k)", ExpressionAttributeNames: { "#k": keyName } };
  }
  return {
    ConditionExpression: entries.map((_, i) => `#a${i} = :v${i}`).join(" AND "),
    ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#a${i}`, name])),
    ExpressionAttributeValues: toSdkImage(Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v]))),
  };
}
