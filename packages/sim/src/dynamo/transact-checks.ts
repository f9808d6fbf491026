import type { DynamoModel } from "./dynamo-model";
import { DynamoError, validation } from "./errors";
import { parseExpressions, requestKey } from "./item-writes";
import { checkItemKeys, encodeKey } from "./table";
import { checkItem } from "./values";

type Input = Record<string, unknown>;

/** One action of a TransactWriteItems request: its kind and its body. */
export type TransactAction = ["Put" | "Update" | "Delete" | "ConditionCheck", Input];

/**
 * Refuses a TransactWriteItems request's invalid input before any action runs, action by action, in DynamoDB Local's
 * order: the attribute values an action carries, then its expressions.
 */
export function checkInputs(actions: TransactAction[]): void {
  for (const [kind, body] of actions) {
    checkItem((kind === "Put" ? body.Item : body.Key) as Record<string, unknown>);
    if (kind !== "ConditionCheck" || body.ConditionExpression !== undefined)
      parseExpressions(body, kind === "Update");
  }
}

/**
 * Refuses an action for its table and key (a Put's item keys: present, scalar, not empty), then for targeting an
 * item an earlier action of the transaction targets (`targets` holds theirs).
 */
export function checkTarget(
  model: DynamoModel,
  kind: TransactAction[0],
  body: Input,
  targets: Set<string>,
): void {
  const id = targetOf(model, kind, body);
  if (targets.has(id)) throw validation("Transaction request cannot include multiple operations on one item");
  targets.add(id);
}

/** The item an action targets, once its table and key are checked. */
function targetOf(model: DynamoModel, kind: TransactAction[0], body: Input): string {
  const table = model.table(body.TableName);
  if (kind !== "Put") return `${table.name}\u0000${requestKey(table, body.Key).key}`;
  const item = checkItem(body.Item as Record<string, unknown>);
  try {
    checkItemKeys(table, item);
  } catch (e) {
    // An index key of the wrong scalar type is the item's own failure, reported as its cancellation reason later.
    if (!(e instanceof DynamoError && e.itemLevel)) throw e;
  }
  return `${table.name}\u0000${encodeKey(table, item)}`;
}
