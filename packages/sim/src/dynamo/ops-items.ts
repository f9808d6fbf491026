import type { DynamoModel } from "./dynamo-model";
import type { Path, UpdateAction } from "./expression-ast";
import { ExpressionContext, refuseWithoutExpressions } from "./expression-context";
import { prepareDelete, preparePut, prepareUpdate, requestKey } from "./item-writes";
import { getPath, projectPaths } from "./paths";
import { parseProjection } from "./projection";
import { checkReturnValues, refuseLegacy } from "./request-checks";
import { cloneItem, type Item } from "./values";

type Input = Record<string, unknown>;

/** Parses a read's ProjectionExpression (undefined: the whole item), checking its names are all used. */
export function readProjection(input: Input): Path[] | undefined {
  refuseLegacy(input);
  if (input.ProjectionExpression === undefined) {
    refuseWithoutExpressions(input.ExpressionAttributeNames, undefined);
    return undefined;
  }
  const ctx = new ExpressionContext(
    input.ExpressionAttributeNames as Record<string, string> | undefined,
    undefined,
  );
  const paths = parseProjection(String(input.ProjectionExpression), ctx);
  ctx.checkAllUsed();
  return paths;
}

/** Copies an item for a reply, keeping only the projected paths when there are some. */
export function shaped(item: Item, paths: Path[] | undefined): Item {
  return paths ? projectPaths(item, paths) : cloneItem(item);
}

/** GetItem: the item by its key, projected; no Item when it does not exist. */
export function getItem(model: DynamoModel, input: Input): Input {
  const table = model.table(input.TableName);
  const paths = readProjection(input);
  const { key } = requestKey(table, input.Key);
  const item = table.items.get(key);
  return item ? { Item: shaped(item, paths) } : {};
}

/** PutItem: replaces the whole item when its condition holds. */
export function putItem(model: DynamoModel, input: Input): Input {
  const rv = checkReturnValues(input.ReturnValues, ["NONE", "ALL_OLD"]);
  const { write } = preparePut(model, input);
  model.commit([write]);
  return rv === "ALL_OLD" && write.before ? { Attributes: cloneItem(write.before) } : {};
}

/** DeleteItem: removes the item when its condition holds (an absent item is no error). */
export function deleteItem(model: DynamoModel, input: Input): Input {
  const rv = checkReturnValues(input.ReturnValues, ["NONE", "ALL_OLD"]);
  const { write } = prepareDelete(model, input);
  model.commit([write]);
  return rv === "ALL_OLD" && write.before ? { Attributes: cloneItem(write.before) } : {};
}

/** UpdateItem: applies the update expression to the item (creating it from its key when absent). */
export function updateItem(model: DynamoModel, input: Input): Input {
  const rv = checkReturnValues(input.ReturnValues, [
    "NONE",
    "ALL_OLD",
    "UPDATED_OLD",
    "ALL_NEW",
    "UPDATED_NEW",
  ]);
  const { write, actions = [] } = prepareUpdate(model, input);
  model.commit([write]);
  let attributes: Item | undefined;
  if (rv === "ALL_OLD") attributes = write.before && cloneItem(write.before);
  if (rv === "ALL_NEW") attributes = write.after && cloneItem(write.after);
  if (rv === "UPDATED_OLD") attributes = write.before && updatedAttributes(write.before, actions);
  if (rv === "UPDATED_NEW") attributes = write.after && updatedAttributes(write.after, actions);
  return attributes && Object.keys(attributes).length > 0 ? { Attributes: attributes } : {};
}

/**
 * UPDATED_OLD / UPDATED_NEW as DynamoDB Local answers them: the whole top-level attribute of every action whose
 * path exists in that image (`SET m.a.c` gives all of m; `REMOVE list[5]` on a shorter list gives nothing, nor does
 * UPDATED_NEW of a removed path).
 */
function updatedAttributes(item: Item, actions: UpdateAction[]): Item {
  const touched = actions.filter((a) => getPath(item, a.path) !== undefined);
  return projectPaths(
    item,
    touched.map((a) => [a.path[0] as string]),
  );
}
