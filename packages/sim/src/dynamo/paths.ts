import { validation } from "./errors";
import type { Path } from "./expression-ast";
import { type AttributeValue, cloneItem, type Item } from "./values";

/** The value a document path points at in an item, or undefined when any step is missing or of the wrong kind. */
export function getPath(item: Item | undefined, path: Path): AttributeValue | undefined {
  if (!item) return undefined;
  let cur: AttributeValue | undefined = item[path[0] as string];
  for (const step of path.slice(1)) {
    if (!cur) return undefined;
    if (typeof step === "number") cur = "L" in cur ? cur.L[step] : undefined;
    else cur = "M" in cur ? cur.M[step] : undefined;
  }
  return cur;
}

const INVALID = "The document path provided in the update expression is invalid for update";

/**
 * The container (map or list) holding the last step of a path, or DynamoDB's error when the parent is missing or of
 * the wrong kind (a map key under a list, an index under a map). Every update action needs it, REMOVE and DELETE
 * too: `REMOVE a.b` where a is absent is refused, not ignored, while a missing last step is fine.
 */
export function parentOf(item: Item, path: Path): Item | AttributeValue[] {
  if (path.length === 1) return item;
  const parent = getPath(item, path.slice(0, -1));
  const last = path[path.length - 1];
  if (parent && typeof last === "number" && "L" in parent) return parent.L;
  if (parent && typeof last === "string" && "M" in parent) return parent.M;
  throw validation(INVALID);
}

/** Writes a value at a path (SET): a list index past the end appends, as DynamoDB does. */
export function setPath(item: Item, path: Path, value: AttributeValue): void {
  const parent = parentOf(item, path);
  const last = path[path.length - 1] as string | number;
  if (Array.isArray(parent)) {
    const index = last as number;
    if (index >= parent.length) parent.push(value);
    else parent[index] = value;
  } else parent[last as string] = value;
}

/** Removes what a path points at (REMOVE): a missing last step is no error; a list element shifts the rest down. */
export function removePath(item: Item, path: Path): void {
  const parent = parentOf(item, path);
  const last = path[path.length - 1] as string | number;
  if (Array.isArray(parent)) {
    if (typeof last === "number" && last < parent.length) parent.splice(last, 1);
  } else delete parent[last as string];
}

/** True when one path is a prefix of the other (DynamoDB's "overlap"). */
export function pathsOverlap(a: Path, b: Path): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/** True when two paths reach one element, one as a map key and the other as a list index (DynamoDB's "conflict"). */
export function pathsConflict(a: Path, b: Path): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    if (a[i] === b[i]) continue;
    return typeof a[i] !== typeof b[i];
  }
  return false;
}

/**
 * Copies the parts of an item that the paths name into a new item, as a ProjectionExpression or UPDATED_* return
 * does: list elements picked by index come back packed in index order.
 */
export function projectPaths(item: Item, paths: Path[]): Item {
  const out: Item = {};
  for (const path of paths) {
    const v = getPath(item, path);
    if (v !== undefined) placeProjected(out, path, v);
  }
  return cloneItem(packLists(out));
}

function placeProjected(out: Item, path: Path, value: AttributeValue): void {
  // Lists under construction keep the original indexes (sparse arrays) until packLists closes the gaps.
  let target: Record<string | number, AttributeValue> = out;
  for (let i = 0; i < path.length - 1; i += 1) {
    const step = path[i] as string | number;
    const next = path[i + 1] as string | number;
    if (target[step] === undefined) target[step] = typeof next === "number" ? { L: [] } : { M: {} };
    const holder = target[step] as AttributeValue;
    target = ("L" in holder ? holder.L : (holder as { M: Item }).M) as unknown as Record<
      string | number,
      AttributeValue
    >;
  }
  target[path[path.length - 1] as string | number] = value;
}

/** Closes the gaps that projecting `a[3]` alone leaves in a list (DynamoDB answers `[x]`, not `[, , , x]`). */
export function packLists(v: Item): Item {
  const out: Item = {};
  for (const [k, x] of Object.entries(v)) out[k] = packValue(x);
  return out;
}

function packValue(v: AttributeValue): AttributeValue {
  if ("L" in v) return { L: v.L.filter((e) => e !== undefined).map(packValue) };
  if ("M" in v) return { M: packLists(v.M) };
  return v;
}
