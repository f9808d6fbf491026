import { evaluate } from "./condition-eval";
import type { DynamoModel, Write } from "./dynamo-model";
import { asItemLevel, conditionFailed, validation } from "./errors";
import type { Condition, UpdateAction } from "./expression-ast";
import { ExpressionContext, refuseWithoutExpressions } from "./expression-context";
import { parseCondition } from "./expression-parser";
import { checkItemSize, refuseLegacy } from "./request-checks";
import { checkItemKeys, checkKey, encodeKey, type Table } from "./table";
import { applyUpdate } from "./update-apply";
import { parseUpdate } from "./update-parser";
import { checkItem, type Item } from "./values";

/** A write ready to commit, with what the caller needs for ReturnValues. */
export interface PreparedWrite {
  write: Write;
  actions?: UpdateAction[];
}

/** The request's expressions parsed against one shared ExpressionAttributeNames/Values context. */
interface Parsed {
  condition?: Condition;
  actions?: UpdateAction[];
}

/** Parses and checks a write's expressions alone (no table, key or item needed), refusing what DynamoDB refuses. */
export function parseExpressions(input: Record<string, unknown>, withUpdate: boolean): Parsed {
  refuseLegacy(input);
  const cond = input.ConditionExpression as string | undefined;
  const update = withUpdate ? (input.UpdateExpression as string | undefined) : undefined;
  if (cond === undefined && update === undefined) {
    refuseStrayPlaceholders(input, withUpdate);
    return {};
  }
  const ctx = new ExpressionContext(
    input.ExpressionAttributeNames as Record<string, string> | undefined,
    input.ExpressionAttributeValues as Record<string, unknown> | undefined,
  );
  const actions = update !== undefined ? parseUpdate(update, ctx) : undefined;
  const condition = cond !== undefined ? parseCondition(cond, ctx, "ConditionExpression") : undefined;
  ctx.checkAllUsed();
  return { condition, actions };
}

/**
 * Refuses ExpressionAttributeNames or Values sent without any expression to use them: DynamoDB Local does so before
 * it checks the key or the item, and before it parses the expressions of a request that has some.
 */
function refuseStrayPlaceholders(input: Record<string, unknown>, withUpdate: boolean): void {
  if (input.ConditionExpression !== undefined || (withUpdate && input.UpdateExpression !== undefined)) return;
  refuseWithoutExpressions(
    input.ExpressionAttributeNames,
    input.ExpressionAttributeValues,
    withUpdate ? "UpdateExpression and ConditionExpression are null" : "ConditionExpression is null",
  );
}

/** Throws ConditionalCheckFailed (with the old item when asked) unless the condition holds or the unsafe switch is on. */
export function checkCondition(
  model: DynamoModel,
  parsed: Parsed,
  before: Item | undefined,
  input: Record<string, unknown>,
): void {
  if (!parsed.condition || model.conditionsIgnored) return;
  if (evaluate(parsed.condition, before)) return;
  const wantOld = input.ReturnValuesOnConditionCheckFailure === "ALL_OLD";
  throw conditionFailed(wantOld ? before : undefined);
}

/** Plans a PutItem (or a transaction's Put): validation, then the condition against the stored item. */
export function preparePut(model: DynamoModel, input: Record<string, unknown>): PreparedWrite {
  const table = model.table(input.TableName);
  const item = checkItem(input.Item as Record<string, unknown>);
  refuseStrayPlaceholders(input, false);
  checkItemSize(item);
  checkItemKeys(table, item);
  const parsed = parseExpressions(input, false);
  const key = encodeKey(table, item);
  const before = table.items.get(key);
  checkCondition(model, parsed, before, input);
  return { write: { table, key, before, after: item } };
}

/** Reads and checks the `Key` parameter of a request. */
export function requestKey(table: Table, raw: unknown): { key: string; keyItem: Item } {
  if (raw === undefined)
    throw validation(
      "1 validation error detected: Value null at 'key' failed to satisfy constraint: Member must not be null",
    );
  const keyItem = checkItem(raw as Record<string, unknown>);
  checkKey(table, keyItem);
  return { key: encodeKey(table, keyItem), keyItem };
}

/** Plans a DeleteItem (or a transaction's Delete). */
export function prepareDelete(model: DynamoModel, input: Record<string, unknown>): PreparedWrite {
  const table = model.table(input.TableName);
  refuseStrayPlaceholders(input, false);
  const { key } = requestKey(table, input.Key);
  const parsed = parseExpressions(input, false);
  const before = table.items.get(key);
  checkCondition(model, parsed, before, input);
  return { write: { table, key, before } };
}

/** Plans an UpdateItem (or a transaction's Update): an absent item is created from its key, as DynamoDB does. */
export function prepareUpdate(model: DynamoModel, input: Record<string, unknown>): PreparedWrite {
  const table = model.table(input.TableName);
  refuseStrayPlaceholders(input, true);
  const { key, keyItem } = requestKey(table, input.Key);
  const parsed = parseExpressions(input, true);
  const actions = parsed.actions ?? [];
  for (const a of actions) {
    const top = a.path[0];
    if (top === table.key.hash || top === table.key.range) {
      throw validation(
        `One or more parameter values were invalid: Cannot update attribute ${String(top)}. This attribute is part of the key`,
      );
    }
  }
  checkIndexKeyPaths(table, actions);
  const before = table.items.get(key);
  checkCondition(model, parsed, before, input);
  const after = asItemLevel(() => applyUpdate(before ?? keyItem, actions), true);
  checkItemKeys(table, after, true);
  asItemLevel(() => checkItemSize(after, true));
  return { write: { table, key, before, after }, actions };
}

/** Refuses an update of a path inside an index key attribute (`SET gsi1pk.a = :v`), index by index, hash key first. */
function checkIndexKeyPaths(table: Table, actions: UpdateAction[]): void {
  for (const index of table.indexes.values()) {
    for (const n of [index.key.hash, index.key.range]) {
      if (!n || !actions.some((a) => a.path[0] === n && a.path.length > 1)) continue;
      throw validation(
        `Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: IndexKey: ${n}`,
      );
    }
  }
}

/** Plans a ConditionCheck of a transaction: no write, only the condition. */
export function prepareConditionCheck(
  model: DynamoModel,
  input: Record<string, unknown>,
): { table: Table; key: string } {
  const table = model.table(input.TableName);
  const { key } = requestKey(table, input.Key);
  if (input.ConditionExpression === undefined) {
    throw validation(
      "1 validation error detected: Value null at 'transactItems.1.member.conditionCheck.conditionExpression' failed to satisfy constraint: Member must not be null",
    );
  }
  const parsed = parseExpressions(input, false);
  checkCondition(model, parsed, table.items.get(key), input);
  return { table, key };
}
