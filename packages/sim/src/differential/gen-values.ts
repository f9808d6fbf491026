import fc from "fast-check";
import type { AV, Item } from "./op";
import { keyNames, type TableName } from "./tables";

/**
 * Numbers as the code and Powertools write them, plus the edges of DynamoDB's number type: decimals whose sum is
 * exact only in decimal (0.1 + 0.2), trailing zeros, exponents, 38 significant digits, the largest magnitude.
 */
export const NUMBERS = [
  "0",
  "1",
  "2",
  "-1",
  "0.1",
  "0.2",
  "0.3",
  "1.50",
  "100",
  "1E+2",
  "1767225600.123",
  "12345678901234567890123456789012345678",
  "-0.00000000000000000000000000000000000001",
  "9.9999999999999999999999999999999999999E+125",
];

const KEY_VALUES: Record<string, string[]> = {
  pk: ["P0", "P1", "P2"],
  sk: ["PAYMENT", "OUT#1", "OUT#2", "REF#1"],
  id: ["C0", "C1", "C2"],
};
const TOTALS_PK = ["T0", "T1"];
const TOTALS_SK = ["w1", "w2", "w3"];

export const STRINGS = ["NEW", "DONE", "FAILED", "a", "b", ""];

const str = (pool: string[]) => fc.constantFrom(...pool).map((s): AV => ({ S: s }));
const num = (pool: string[]) => fc.constantFrom(...pool).map((n): AV => ({ N: n }));
const setOf = (pool: string[], kind: "SS" | "NS") =>
  fc.subarray(pool, { minLength: 1 }).map((v): AV => (kind === "SS" ? { SS: v } : { NS: v }));

/** A scalar or small document of any type: used where a wrong type must sometimes turn up. */
export const anyValue: fc.Arbitrary<AV> = fc.oneof(
  str(STRINGS),
  num(NUMBERS),
  fc.boolean().map((b): AV => ({ BOOL: b })),
  fc.constant<AV>({ NULL: true }),
  setOf(["a", "b", "c"], "SS"),
  setOf(["1", "2", "0.5"], "NS"),
  fc.array(fc.oneof(str(["a", "b"]), num(["1", "2"])), { maxLength: 2 }).map((l): AV => ({ L: l })),
);

/** The usual value of each non-key attribute the corpus writes; paths into them are built in gen-paths. */
export const ATTRIBUTES: Record<string, fc.Arbitrary<AV>> = {
  state: str(["NEW", "DONE", "FAILED"]),
  version: num(["0", "1", "2", "3"]),
  amount: num(NUMBERS),
  members: setOf(["a", "b", "c"], "SS"),
  nums: setOf(["1", "2", "0.5"], "NS"),
  data: fc
    .record(
      {
        a: num(["1", "0.1", "2"]),
        b: fc.record({ c: str(["x", "y"]) }, { requiredKeys: [] }).map((m): AV => ({ M: m as Item })),
        tags: setOf(["x", "y"], "SS"),
      },
      { requiredKeys: [] },
    )
    .map((m): AV => ({ M: m as Item })),
  list: fc.array(fc.oneof(str(["a", "b"]), num(["1", "2"])), { maxLength: 3 }).map((l): AV => ({ L: l })),
  flag: fc.boolean().map((b): AV => ({ BOOL: b })),
  nothing: fc.constant<AV>({ NULL: true }),
  expiration: num(["100", "200", "300", "200.5"]),
  note: str(STRINGS),
};

const INDEX_ATTRIBUTES: Record<TableName, Record<string, fc.Arbitrary<AV>>> = {
  ledger: { gsi1pk: str(["G1", "G2"]), gsi1sk: str(["2024-01", "2024-02", "2024-03"]) },
  totals: { bpk: str(["B1", "B2"]), btag: num(["1", "2", "3", "2.5"]) },
  claims: {},
};

/** The value of a named attribute: its usual type, and now and then any type (so type errors happen). */
export function valueFor(table: TableName, name: string): fc.Arbitrary<AV> {
  const usual = ATTRIBUTES[name] ?? INDEX_ATTRIBUTES[table][name] ?? keyValue(table, name);
  return fc.oneof({ arbitrary: usual, weight: 19 }, { arbitrary: anyValue, weight: 1 });
}

function keyValue(table: TableName, name: string): fc.Arbitrary<AV> {
  if (table === "totals" && name === "pk") return str(TOTALS_PK);
  if (table === "totals" && name === "sk") return str(TOTALS_SK);
  return str(KEY_VALUES[name] ?? ["k"]);
}

/** A key of the table from its small key space, so that requests collide on the same items. */
export function keyArb(table: TableName): fc.Arbitrary<Item> {
  const [hash, range] = keyNames(table) as [string, string | undefined];
  const shape: Record<string, fc.Arbitrary<AV>> = { [hash]: keyValue(table, hash) };
  if (range) shape[range] = keyValue(table, range);
  return fc.record(shape) as fc.Arbitrary<Item>;
}

/** The non-key attribute names a table's items carry (the index keys are sparse: often absent). */
export function attributeNames(table: TableName): string[] {
  return [...Object.keys(ATTRIBUTES), ...Object.keys(INDEX_ATTRIBUTES[table])];
}

/** A whole item: a key and any subset of the table's attributes, each mostly of its usual type. */
export function itemArb(table: TableName): fc.Arbitrary<Item> {
  const attrs: Record<string, fc.Arbitrary<AV>> = {};
  for (const name of attributeNames(table)) attrs[name] = valueFor(table, name);
  return fc
    .tuple(keyArb(table), fc.record(attrs, { requiredKeys: [] }))
    .map(([key, rest]) => ({ ...(rest as Item), ...key }));
}

export const tableArb: fc.Arbitrary<TableName> = fc.constantFrom("ledger", "totals", "claims");
