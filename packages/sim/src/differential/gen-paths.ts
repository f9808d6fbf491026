import fc from "fast-check";
import { attributeNames, valueFor } from "./gen-values";
import type { AV } from "./op";
import type { Path } from "./render";
import type { TableName } from "./tables";

/** Paths into the documents the corpus writes: nested maps, list elements, sets inside maps. */
const NESTED: Path[] = [
  ["data", "a"],
  ["data", "b", "c"],
  ["data", "tags"],
  ["data", "b"],
  ["list", 0],
  ["list", 2],
];

/** A path of the table's items: mostly a top-level attribute, sometimes nested, rarely a key attribute. */
export function pathArb(table: TableName, keys = false): fc.Arbitrary<Path> {
  const top = attributeNames(table).map((n): Path => [n]);
  const keyPaths: Path[] = table === "claims" ? [["id"]] : [["pk"], ["sk"]];
  return fc.oneof(
    { arbitrary: fc.constantFrom(...top), weight: 6 },
    { arbitrary: fc.constantFrom(...NESTED), weight: 2 },
    { arbitrary: fc.constantFrom(...keyPaths), weight: keys ? 1 : 0 },
  );
}

/** A value fitting the path's usual type (and now and then any type). */
export function valueForPath(table: TableName, path: Path): fc.Arbitrary<AV> {
  const [root, next] = path;
  if (root === "data" && next === "a") return valueFor(table, "amount");
  if (root === "data" && next === "tags") return valueFor(table, "members");
  if (root === "data") return valueFor(table, "note");
  if (root === "list" && path.length > 1) return valueFor(table, "note");
  return valueFor(table, String(root));
}

/** Paths whose usual type orders (S or N): the operands of <, <=, >, >=, BETWEEN, begins_with. */
const ORDERED: Path[] = [
  ["state"],
  ["version"],
  ["amount"],
  ["expiration"],
  ["note"],
  ["data", "a"],
  ["data", "b", "c"],
  ["list", 0],
];
/** Paths contains() reads: strings, sets and lists. */
const CONTAINERS: Path[] = [["members"], ["nums"], ["list"], ["note"], ["state"], ["data", "tags"]];

/** A path for an ordering comparison: mostly one of an ordered type, now and then any (a type error). */
export function orderedPathArb(table: TableName): fc.Arbitrary<Path> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...ORDERED), weight: 9 },
    { arbitrary: pathArb(table, true), weight: 1 },
  );
}

/** A path for contains(): mostly a string, set or list. */
export function containerPathArb(table: TableName): fc.Arbitrary<Path> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...CONTAINERS), weight: 9 },
    { arbitrary: pathArb(table), weight: 1 },
  );
}

/** A path whose value for contains() is an element: a set's or list's member, or a substring of a string. */
export function elementFor(table: TableName, path: Path): fc.Arbitrary<AV> {
  const root = path[0];
  if (root === "members" || root === "list" || root === "data") return valueFor(table, "note");
  if (root === "nums") return fc.constantFrom<AV>({ N: "1" }, { N: "0.5" }, { N: "3" });
  return valueForPath(table, path);
}

/** A path together with a value of its type: the operand of comparisons and SET actions. */
export function pathWithValue(
  table: TableName,
  keys = false,
  paths = pathArb(table, keys),
): fc.Arbitrary<[Path, AV]> {
  return paths.chain((p) => valueForPath(table, p).map((v): [Path, AV] => [p, v]));
}

/**
 * Names written bare in expressions. Everything else goes through `#n` placeholders; `state`, `data` and `list`
 * are reserved words, so a bare one is refused (a generated invalid request, see gen-invalid).
 */
export const BARE_SAFE = new Set([
  "pk",
  "sk",
  "id",
  "tat",
  "expiration",
  "amount",
  "gsi1pk",
  "gsi1sk",
  "bpk",
  "btag",
]);
