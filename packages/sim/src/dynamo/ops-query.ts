import { evaluate } from "./condition-eval";
import type { DynamoModel } from "./dynamo-model";
import { validation } from "./errors";
import type { Condition, Operand, Path } from "./expression-ast";
import { ExpressionContext, refuseWithoutExpressions } from "./expression-context";
import { parseCondition } from "./expression-parser";
import { keyCondition, matchesKey } from "./key-condition";
import { shaped } from "./ops-items";
import { projectPaths } from "./paths";
import { parseProjection } from "./projection";
import { refuseLegacy } from "./request-checks";
import { compareByKey, type IndexDef, type KeySchema, type Table } from "./table";
import { checkItem, type Item, itemSize } from "./values";

type Input = Record<string, unknown>;

/** Where a read looks: the table or one of its indexes, with the order its pages follow. */
interface Source {
  table: Table;
  index?: IndexDef;
  key: KeySchema;
}

function source(model: DynamoModel, input: Input): Source {
  const table = model.table(input.TableName);
  if (input.IndexName === undefined) return { table, key: table.key };
  const index = table.indexes.get(String(input.IndexName));
  if (!index) throw validation(`The table does not have the specified index: ${String(input.IndexName)}`);
  return { table, index, key: index.key };
}

/** Refuses a consistent read of a global index (DynamoDB Local checks it after the expressions). */
function checkConsistentRead(s: Source, input: Input): void {
  if (s.index?.kind === "GSI" && input.ConsistentRead === true) {
    throw validation("Consistent reads are not supported on global secondary indexes");
  }
}

/** The attribute names of the item position a page resumes from: the index's key plus the table's. */
function positionNames(s: Source): string[] {
  const names = [s.key.hash, s.key.range, s.table.key.hash, s.table.key.range].filter(
    (n): n is string => !!n,
  );
  return [...new Set(names)];
}

/** Orders items by the source's key, then by the table's key (ties on an index key need a stable order to page). */
function order(s: Source): (a: Item, b: Item) => number {
  return (a, b) => compareByKey(s.key, a, b) || compareByKey(s.table.key, a, b);
}

function inSource(s: Source, item: Item): boolean {
  return !!item[s.key.hash] && (!s.key.range || !!item[s.key.range]);
}

interface Expressions {
  keyCond?: Condition;
  filter?: Condition;
  projection?: Path[];
}

function parseAll(input: Input, withKey: boolean): Expressions {
  refuseLegacy(input);
  const texts = [input.KeyConditionExpression, input.FilterExpression, input.ProjectionExpression];
  if (texts.every((t) => t === undefined)) {
    refuseWithoutExpressions(
      input.ExpressionAttributeNames,
      input.ExpressionAttributeValues,
      withKey ? "KeyConditionExpression is null" : "FilterExpression is null",
    );
    return {};
  }
  const ctx = new ExpressionContext(
    input.ExpressionAttributeNames as Record<string, string> | undefined,
    input.ExpressionAttributeValues as Record<string, unknown> | undefined,
  );
  // DynamoDB Local's order of refusals: the filter, then the projection, then a Query's key condition.
  const out: Expressions = {};
  if (input.FilterExpression !== undefined)
    out.filter = parseCondition(String(input.FilterExpression), ctx, "FilterExpression");
  if (input.ProjectionExpression !== undefined)
    out.projection = parseProjection(String(input.ProjectionExpression), ctx);
  if (withKey && input.KeyConditionExpression !== undefined)
    out.keyCond = parseCondition(String(input.KeyConditionExpression), ctx, "KeyConditionExpression");
  ctx.checkAllUsed();
  return out;
}

function operandsOf(c: Condition): Operand[] {
  switch (c.kind) {
    case "and":
    case "or":
      return [...operandsOf(c.left), ...operandsOf(c.right)];
    case "not":
      return operandsOf(c.inner);
    case "compare":
      return [c.left, c.right];
    case "between":
      return [c.subject, c.low, c.high];
    case "in":
      return [c.subject, ...c.options];
    default:
      return c.args;
  }
}

/** Refuses a filter on the queried key's attributes, naming the hash key first when it uses both (as DynamoDB does). */
function checkFilterKeys(filter: Condition | undefined, s: Source): void {
  const used = new Set(
    (filter ? operandsOf(filter) : []).flatMap((o) => (o.kind === "value" ? [] : [o.path[0]])),
  );
  for (const key of [s.key.hash, s.key.range]) {
    if (key && used.has(key)) {
      throw validation(
        `Filter Expression can only contain non-primary key attributes: Primary key attribute: ${key}`,
      );
    }
  }
}

function selectMode(input: Input, s: Source, projection: Path[] | undefined): string {
  const select =
    (input.Select as string | undefined) ??
    (projection ? "SPECIFIC_ATTRIBUTES" : s.index ? "ALL_PROJECTED_ATTRIBUTES" : "ALL_ATTRIBUTES");
  if (projection && select !== "SPECIFIC_ATTRIBUTES") {
    throw validation(`Cannot specify the ProjectionExpression when choosing to get ${select}`);
  }
  if (select === "ALL_PROJECTED_ATTRIBUTES" && !s.index)
    throw validation("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
  if (select === "ALL_ATTRIBUTES" && s.index?.kind === "GSI" && s.index.projection.type !== "ALL") {
    throw validation(
      `One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index ${s.index.name} because its projection type is not ALL`,
    );
  }
  return select;
}

/** The item as the index stores it: keys plus the projected attributes. */
function asIndexed(s: Source, item: Item): Item {
  const p = s.index?.projection;
  if (!p || p.type === "ALL") return item;
  const names = [...positionNames(s), ...(p.type === "INCLUDE" ? p.include : [])];
  return projectPaths(
    item,
    names.map((n) => [n]),
  );
}

/** Reads one page from the ordered candidates, as Query and Scan both do: Limit and 1 MB before the filter. */
function page(s: Source, candidates: Item[], input: Input, ex: Expressions, forward: boolean): Input {
  const sorted = candidates.sort(order(s));
  if (!forward) sorted.reverse();
  const cmp = order(s);
  const startKey = input.ExclusiveStartKey ? startItem(s, input.ExclusiveStartKey) : undefined;
  const rest = startKey
    ? sorted.filter((i) => (forward ? cmp(i, startKey) > 0 : cmp(i, startKey) < 0))
    : sorted;
  const limit = input.Limit === undefined ? Number.POSITIVE_INFINITY : Number(input.Limit);
  if (limit < 1)
    throw validation(
      "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1",
    );
  const evaluated: Item[] = [];
  let bytes = 0;
  for (const item of rest) {
    if (evaluated.length >= limit || bytes >= 1024 * 1024) break;
    evaluated.push(item);
    bytes += itemSize(item);
  }
  const matched = ex.filter ? evaluated.filter((i) => evaluate(ex.filter as Condition, i)) : evaluated;
  const select = selectMode(input, s, ex.projection);
  const last = evaluated[evaluated.length - 1];
  const more = last !== undefined && evaluated.length < rest.length;
  return {
    ...(select === "COUNT" ? {} : { Items: matched.map((i) => shaped(asIndexed(s, i), ex.projection)) }),
    Count: matched.length,
    ScannedCount: evaluated.length,
    ...(more || (last && evaluated.length === limit)
      ? {
          LastEvaluatedKey: projectPaths(
            last,
            positionNames(s).map((n) => [n]),
          ),
        }
      : {}),
  };
}

function startItem(s: Source, raw: unknown): Item {
  const start = checkItem(raw as Record<string, unknown>);
  const names = positionNames(s);
  if (Object.keys(start).length !== names.length) {
    throw validation("Exclusive Start Key must have same size as table's key schema");
  }
  if (names.some((n) => !start[n])) {
    throw validation(
      "The provided starting key is invalid: The provided key element does not match the schema",
    );
  }
  return start;
}

/** Query: one partition of the table or an index, in sort-key order, paged. */
export function query(model: DynamoModel, input: Input): Input {
  const s = source(model, input);
  if (input.KeyConditionExpression === undefined) {
    throw validation(
      "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.",
    );
  }
  const ex = parseAll(input, true);
  checkConsistentRead(s, input);
  const kc = keyCondition(ex.keyCond as Condition, s.key, s.table.attributeTypes);
  checkFilterKeys(ex.filter, s);
  const candidates = [...s.table.items.values()].filter((i) => inSource(s, i) && matchesKey(i, s.key, kc));
  return page(s, candidates, input, ex, input.ScanIndexForward !== false);
}

/** Scan: the whole table or index (or one segment of a parallel scan), in key order, paged. */
export function scan(model: DynamoModel, input: Input): Input {
  const s = source(model, input);
  const ex = parseAll(input, false);
  checkConsistentRead(s, input);
  let candidates = [...s.table.items.values()].filter((i) => inSource(s, i));
  if (input.TotalSegments !== undefined || input.Segment !== undefined) {
    const total = Number(input.TotalSegments);
    const segment = Number(input.Segment);
    if (!(total >= 1 && total <= 1_000_000 && segment >= 0 && segment < total)) {
      throw validation(
        `1 validation error detected: Value '${segment}' at 'segment' failed to satisfy constraint: Member must have value less than or equal to ${total - 1}`,
      );
    }
    candidates = candidates.filter((i) => segmentOf(JSON.stringify(i[s.table.key.hash]), total) === segment);
  }
  return page(s, candidates, input, ex, true);
}

/** A stable spread of partition keys over segments (FNV-1a), so each item lands in exactly one. */
function segmentOf(text: string, total: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h % total;
}
