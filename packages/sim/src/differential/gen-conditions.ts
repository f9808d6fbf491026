import fc from "fast-check";
import {
  BARE_SAFE,
  containerPathArb,
  elementFor,
  orderedPathArb,
  pathArb,
  pathWithValue,
  valueForPath,
} from "./gen-paths";
import type { AV } from "./op";
import type { Path, RenderContext } from "./render";
import type { TableName } from "./tables";

type Cmp = "=" | "<>" | "<" | "<=" | ">" | ">=";

/** A condition as data; rendered with placeholders by renderCondition. */
export type Cond =
  | { k: "cmp"; op: Cmp; path: Path; value: AV }
  | { k: "cmpPaths"; op: Cmp; left: Path; right: Path }
  | { k: "exists" | "notExists"; path: Path }
  | { k: "beginsWith" | "contains"; path: Path; value: AV }
  | { k: "size"; op: Cmp; path: Path; value: AV }
  | { k: "in"; path: Path; values: AV[] }
  | { k: "between"; path: Path; low: AV; high: AV }
  | { k: "type"; path: Path; value: AV }
  | { k: "and" | "or"; left: Cond; right: Cond }
  | { k: "not"; inner: Cond };

const cmpArb = fc.constantFrom<Cmp>("=", "<>", "<", "<=", ">", ">=");
const TYPES = ["S", "N", "SS", "NS", "L", "M", "BOOL", "NULL", "B"];

/** One comparison or function of the condition grammar on the table's paths. */
function leafArb(table: TableName): fc.Arbitrary<Cond> {
  return fc.oneof(
    { arbitrary: comparisonArb(table), weight: 12 },
    { arbitrary: functionArb(table), weight: 6 },
  );
}

/** Comparisons: with a value (equality on any path, ordering on S/N paths), of two paths, IN, BETWEEN. */
function comparisonArb(table: TableName): fc.Arbitrary<Cond> {
  const pv = pathWithValue(table, true);
  const ordered = pathWithValue(table, true, orderedPathArb(table));
  const equality = fc.constantFrom<Cmp>("=", "<>");
  const ordering = fc.constantFrom<Cmp>("<", "<=", ">", ">=");
  const cmp = ([op, [path, value]]: [Cmp, [Path, AV]]): Cond => ({ k: "cmp", op, path, value });
  return fc.oneof(
    { arbitrary: fc.tuple(equality, pv).map(cmp), weight: 3 },
    { arbitrary: fc.tuple(ordering, ordered).map(cmp), weight: 3 },
    {
      arbitrary: fc
        .tuple(cmpArb, orderedPathArb(table), orderedPathArb(table))
        .map(([op, left, right]): Cond => ({ k: "cmpPaths", op, left, right })),
      weight: 1,
    },
    {
      arbitrary: pathArb(table, true).chain((path) =>
        fc
          .array(valueForPath(table, path), { minLength: 1, maxLength: 3 })
          .map((values): Cond => ({ k: "in", path, values })),
      ),
      weight: 2,
    },
    {
      arbitrary: orderedPathArb(table).chain((path) =>
        fc
          .tuple(valueForPath(table, path), valueForPath(table, path))
          .map(([low, high]): Cond => ({ k: "between", path, low, high })),
      ),
      weight: 1,
    },
  );
}

/** The functions: attribute_exists/not_exists, begins_with, contains, size, attribute_type. */
function functionArb(table: TableName): fc.Arbitrary<Cond> {
  const ordered = pathWithValue(table, true, orderedPathArb(table));
  return fc.oneof(
    { arbitrary: pathArb(table, true).map((path): Cond => ({ k: "exists", path })), weight: 2 },
    { arbitrary: pathArb(table, true).map((path): Cond => ({ k: "notExists", path })), weight: 3 },
    { arbitrary: ordered.map(([path, value]): Cond => ({ k: "beginsWith", path, value })), weight: 1 },
    {
      arbitrary: containerPathArb(table).chain((path) =>
        elementFor(table, path).map((value): Cond => ({ k: "contains", path, value })),
      ),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(cmpArb, containerPathArb(table), fc.constantFrom("0", "1", "2", "3"))
        .map(([op, path, n]): Cond => ({ k: "size", op, path, value: { N: n } })),
      weight: 1,
    },
    {
      arbitrary: fc
        .tuple(pathArb(table), fc.constantFrom(...TYPES))
        .map(([path, t]): Cond => ({ k: "type", path, value: { S: t } })),
      weight: 1,
    },
  );
}

/** A condition of up to two connectives, like the project's (`attribute_not_exists(pk) OR epoch < :epoch`). */
export function condArb(table: TableName): fc.Arbitrary<Cond> {
  const leaf = leafArb(table);
  return fc.oneof(
    { arbitrary: leaf, weight: 5 },
    {
      arbitrary: fc
        .tuple(fc.constantFrom("and" as const, "or" as const), leaf, leaf)
        .map(([k, left, right]): Cond => ({ k, left, right })),
      weight: 3,
    },
    { arbitrary: leaf.map((inner): Cond => ({ k: "not", inner })), weight: 1 },
    {
      arbitrary: fc
        .tuple(leaf, leaf, leaf)
        .map(([a, b, c]): Cond => ({ k: "or", left: a, right: { k: "and", left: b, right: c } })),
      weight: 1,
    },
  );
}

/** Renders a condition into expression text, registering its names and values on the context. */
export function renderCondition(c: Cond, ctx: RenderContext): string {
  const p = (path: Path) => ctx.path(path, BARE_SAFE.has(String(path[0])));
  switch (c.k) {
    case "cmp":
      return `${p(c.path)} ${c.op} ${ctx.value(c.value)}`;
    case "cmpPaths":
      return `${p(c.left)} ${c.op} ${p(c.right)}`;
    case "exists":
      return `attribute_exists(${p(c.path)})`;
    case "notExists":
      return `attribute_not_exists(${p(c.path)})`;
    case "beginsWith":
      return `begins_with(${p(c.path)}, ${ctx.value(c.value)})`;
    case "contains":
      return `contains(${p(c.path)}, ${ctx.value(c.value)})`;
    case "size":
      return `size(${p(c.path)}) ${c.op} ${ctx.value(c.value)}`;
    case "in":
      return `${p(c.path)} IN (${c.values.map((v) => ctx.value(v)).join(", ")})`;
    case "between":
      return `${p(c.path)} BETWEEN ${ctx.value(c.low)} AND ${ctx.value(c.high)}`;
    case "type":
      return `attribute_type(${p(c.path)}, ${ctx.value(c.value)})`;
    case "and":
    case "or":
      return `(${renderCondition(c.left, ctx)}) ${c.k.toUpperCase()} (${renderCondition(c.right, ctx)})`;
    case "not":
      return `NOT (${renderCondition(c.inner, ctx)})`;
  }
}
