// AWS's billing rules for DynamoDB requests, as the developer guide states them, applied to items we can see
// (never the emulator's ConsumedCapacity, which DynamoDB Local under-reports for transactions and indexes).

/** A table's shape as billing needs it: its key attributes and its global secondary indexes. */
export interface TableShape {
  name: string;
  keys: string[];
  indexes: IndexShape[];
}

/** A global secondary index: its key attributes and what it projects. */
export interface IndexShape {
  name: string;
  keys: string[];
  projection: "ALL" | "KEYS_ONLY" | "INCLUDE";
  include?: string[];
}

type Item = Record<string, unknown>;

/** An attribute value's size: strings and binaries by their bytes, numbers by digits/2 + 1, lists and maps 3 + 1 per element. */
export function valueBytes(value: unknown): number {
  if (value === null || value === undefined || typeof value === "boolean") return 1;
  if (typeof value === "string") return Buffer.byteLength(value);
  if (typeof value === "number" || typeof value === "bigint")
    return Math.min(21, Math.ceil(String(value).replace(/^-|\.|e.*$/g, "").length / 2) + 1);
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce((s: number, v) => s + valueBytes(v), 0);
  if (Array.isArray(value)) return 3 + value.reduce((s: number, v) => s + 1 + valueBytes(v), 0);
  return (
    3 + Object.entries(value as Item).reduce((s, [k, v]) => s + 1 + Buffer.byteLength(k) + valueBytes(v), 0)
  );
}

/** An item's size as DynamoDB bills it: each attribute's name plus its value. */
export function itemBytes(item: Item | undefined): number {
  if (!item) return 0;
  return Object.entries(item).reduce((s, [k, v]) => s + Buffer.byteLength(k) + valueBytes(v), 0);
}

/** Write units of one standard write: one per started KB, at least one. */
export const writeUnits = (bytes: number): number => Math.max(1, Math.ceil(bytes / 1024));

/** Read units of one read of `bytes`: one per started 4 KB, half for an eventually consistent read. */
export const readUnits = (bytes: number, consistent: boolean): number =>
  Math.max(1, Math.ceil(bytes / 4096)) * (consistent ? 1 : 0.5);

/**
 * The base table's write units for one item written: a put or an update bills the larger of the item before and
 * after, a delete the item it removed; a transaction bills every item twice.
 */
export function baseWriteUnits(
  before: Item | undefined,
  after: Item | undefined,
  transactional: boolean,
): number {
  return writeUnits(Math.max(itemBytes(before), itemBytes(after))) * (transactional ? 2 : 1);
}

/** The index writes one item's change costs, per index: an entry added, updated or removed is one write; a moved key two. */
export function indexWriteUnits(
  table: TableShape,
  before: Item | undefined,
  after: Item | undefined,
): number {
  return table.indexes.reduce((sum, index) => sum + oneIndex(table, index, before, after), 0);
}

function oneIndex(
  table: TableShape,
  index: IndexShape,
  before: Item | undefined,
  after: Item | undefined,
): number {
  const inOld = before !== undefined && index.keys.every((k) => before[k] !== undefined);
  const inNew = after !== undefined && index.keys.every((k) => after[k] !== undefined);
  const units = (item: Item) => writeUnits(entryBytes(table, index, item));
  if (inOld && !inNew) return units(before as Item);
  if (!inOld && inNew) return units(after as Item);
  if (!inOld || !inNew) return 0;
  const keysMoved = index.keys.some((k) => !sameValue((before as Item)[k], (after as Item)[k]));
  if (keysMoved) return units(before as Item) + units(after as Item);
  const projected = projectedOf(table, index, after as Item);
  const changed = Object.keys({ ...projectedOf(table, index, before as Item), ...projected }).some(
    (k) => !sameValue((before as Item)[k], (after as Item)[k]),
  );
  return changed ? units(after as Item) : 0;
}

/** An index entry's size: its projected attributes, the table's and index's keys, and 100 bytes of overhead. */
export function entryBytes(table: TableShape, index: IndexShape, item: Item): number {
  return itemBytes(projectedOf(table, index, item)) + 100;
}

function projectedOf(table: TableShape, index: IndexShape, item: Item): Item {
  if (index.projection === "ALL") return item;
  const names = new Set([...table.keys, ...index.keys, ...(index.include ?? [])]);
  return Object.fromEntries(Object.entries(item).filter(([k]) => names.has(k)));
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
