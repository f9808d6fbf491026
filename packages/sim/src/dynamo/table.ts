import { asItemLevel, validation } from "./errors";
import { type AttributeValue, compareScalars, type Item, typeOf } from "./values";

/** A key schema: the hash attribute and, for a composite key, the range attribute. */
export interface KeySchema {
  hash: string;
  range?: string;
}

/** A secondary index and what it projects. */
export interface IndexDef {
  name: string;
  kind: "GSI" | "LSI";
  key: KeySchema;
  projection: { type: "ALL" | "KEYS_ONLY" | "INCLUDE"; include: string[] };
  /** The request's own shape, echoed by DescribeTable. */
  raw: Record<string, unknown>;
}

/** A table's definition and its items, keyed by their encoded primary key. */
export interface Table {
  name: string;
  key: KeySchema;
  attributeTypes: Record<string, "S" | "N" | "B">;
  indexes: Map<string, IndexDef>;
  stream?: { StreamEnabled: boolean; StreamViewType?: string };
  ttlAttribute?: string;
  createdAtMs: number;
  /** The Region of the model that holds it: its ARNs (and its stream's) name it, as on AWS. */
  region: string;
  raw: Record<string, unknown>;
  items: Map<string, Item>;
}

/** A key value's identity: numbers are canonical already, so type plus text is exact. */
function encodeValue(v: AttributeValue | undefined): string {
  if (!v) return "";
  const t = typeOf(v);
  return `${t}:${(v as Record<string, string>)[t]}`;
}

/** The identity of an item's primary key within its table. */
export function encodeKey(table: Table, item: Item): string {
  const h = encodeValue(item[table.key.hash]);
  return table.key.range ? `${h}\u0000${encodeValue(item[table.key.range])}` : h;
}

/** Just the primary key attributes of an item. */
export function keyOf(table: Table, item: Item): Item {
  const out: Item = { [table.key.hash]: item[table.key.hash] as AttributeValue };
  if (table.key.range) out[table.key.range] = item[table.key.range] as AttributeValue;
  return out;
}

/** Checks a `Key` parameter: exactly the key attributes, of the declared types, with no empty string or binary. */
export function checkKey(table: Table, key: Item): void {
  const names = [table.key.hash, ...(table.key.range ? [table.key.range] : [])];
  const given = Object.keys(key);
  if (given.length !== names.length) throw validation("The number of conditions on the keys is invalid");
  if (names.some((n) => key[n] === undefined)) {
    throw validation("The provided key element does not match the schema");
  }
  for (const n of names) {
    const v = key[n] as AttributeValue;
    checkScalar(v);
    if (typeOf(v) !== table.attributeTypes[n])
      throw validation("The provided key element does not match the schema");
    checkNotEmptyKey(v, n);
  }
}

function checkNotEmptyKey(v: AttributeValue, name: string): void {
  if (("S" in v && v.S === "") || ("B" in v && v.B === "")) {
    throw validation(
      `One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty ${"S" in v ? "string" : "binary"} value. Key: ${name}`,
    );
  }
}

/**
 * Checks an item to be stored: its key attributes present and typed, and its index keys typed (sparse is fine). A
 * scalar of the wrong type in an index key is this item's fault (a transaction cancels with a ValidationError reason);
 * a non-scalar or empty index key is refused as invalid input, before any transaction runs (DynamoDB Local does so
 * for Put and Update alike).
 */
export function checkItemKeys(table: Table, item: Item, update = false): void {
  checkPrimaryKey(table, item);
  for (const index of table.indexes.values()) checkIndexKeys(table, index, item, update);
}

/** Checks that an item to be stored carries its primary key attributes, typed as declared and not empty. */
export function checkPrimaryKey(table: Table, item: Item): void {
  for (const n of [table.key.hash, table.key.range]) {
    if (!n) continue;
    const v = item[n];
    // DynamoDB Local's words; the service says "Missing the key <name> in the item".
    if (!v) throw validation("One of the required keys was not given a value");
    checkScalar(v);
    const want = table.attributeTypes[n];
    if (typeOf(v) !== want) {
      // DynamoDB Local's words; the service adds "<name> expected: S actual: N".
      throw validation("One or more parameter values were invalid: Type mismatch for key");
    }
    checkNotEmptyKey(v, n);
  }
}

/** A key attribute that is not a string, number or binary at all (the text the service answers too). */
function checkScalar(v: AttributeValue): void {
  const t = typeOf(v);
  if (t !== "S" && t !== "N" && t !== "B") throw validation("Invalid attribute value type");
}

function checkIndexKeys(table: Table, index: IndexDef, item: Item, update: boolean): void {
  for (const n of [index.key.hash, index.key.range]) {
    const v = n ? item[n] : undefined;
    if (!n || !v) continue;
    checkScalar(v);
    const want = table.attributeTypes[n];
    if (typeOf(v) !== want) {
      // DynamoDB Local's words; the service adds "<name> Expected: S Actual: N IndexName: <index>".
      asItemLevel(() => {
        throw validation("One or more parameter values were invalid: Type mismatch for Index Key");
      });
    }
    const empty = ("S" in v && v.S === "") || ("B" in v && v.B === "");
    if (empty && update) {
      throw validation(
        `One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty ${"S" in v ? "string" : "binary"} value.`,
      );
    }
    if (empty) {
      throw validation(
        `One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty ${"S" in v ? "string" : "binary"} value. IndexName: ${index.name}, IndexKey: ${n}`,
      );
    }
  }
}

/** Orders two items by a key schema (hash then range), the order Query and Scan pages follow. */
export function compareByKey(key: KeySchema, a: Item, b: Item): number {
  for (const n of [key.hash, key.range]) {
    if (!n) continue;
    const x = a[n];
    const y = b[n];
    if (!x || !y) return x ? 1 : y ? -1 : 0;
    const order = compareScalars(x, y);
    if (order) return order;
  }
  return 0;
}
