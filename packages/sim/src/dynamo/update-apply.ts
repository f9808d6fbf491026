import { formatDecimal, negated, parseDecimal, sumDecimal } from "./decimal";
import { validation } from "./errors";
import type { Path, SetValue, UpdateAction } from "./expression-ast";
import { getPath, parentOf, removePath, setPath } from "./paths";
import { type AttributeValue, cloneItem, type Item, memberKey, payload, typeOf } from "./values";

const WRONG_TYPE = "An operand in the update expression has an incorrect data type";

/**
 * Applies update actions to a copy of the item. Every right-hand side reads the item as it was before the update
 * (DynamoDB's rule: `SET a = :x, b = a` gives b the old a), then the writes land. When several actions would fail,
 * DynamoDB Local reports, in this order of checks: a target path whose parent is missing or of the wrong kind (any
 * action), then a missing operand or an operand of the wrong type (the last such action in the expression is the
 * one reported), then a result out of the number range.
 */
export function applyUpdate(before: Item, actions: UpdateAction[]): Item {
  for (const a of actions) parentOf(before, a.path);
  const results = new Map<UpdateAction, AttributeValue | undefined>();
  for (const a of [...actions].reverse()) {
    if (a.kind === "SET") results.set(a, resolve(a.value, before));
    else if (a.kind === "ADD") results.set(a, added(getPath(before, a.path), a.value));
    else if (a.kind === "DELETE") results.set(a, deleted(getPath(before, a.path), a.value));
  }
  for (const v of [...results.values()]) if (v && "N" in v) parseDecimal(v.N);
  const after = cloneItem(before);
  for (const a of actions) {
    if (!results.has(a)) continue;
    const v = results.get(a);
    if (v === undefined) removePath(after, a.path);
    else setPath(after, a.path, v);
  }
  // Removals go last and from the highest list index down, so REMOVE a[1], a[2] removes the two original elements.
  const removals = actions.filter((a): a is UpdateAction & { kind: "REMOVE" } => a.kind === "REMOVE");
  removals.sort((x, y) => comparePathsForRemoval(y.path, x.path));
  for (const r of removals) removePath(after, r.path);
  return after;
}

function comparePathsForRemoval(a: Path, b: Path): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return a.length - b.length;
}

function resolve(v: SetValue, item: Item): AttributeValue {
  switch (v.kind) {
    case "value":
      return v.value;
    case "path": {
      const found = getPath(item, v.path);
      if (found === undefined)
        throw validation("The provided expression refers to an attribute that does not exist in the item");
      return found;
    }
    case "if_not_exists":
      return getPath(item, v.path) ?? resolve(v.fallback, item);
    case "list_append": {
      const left = resolve(v.left, item);
      const right = resolve(v.right, item);
      if (!("L" in left) || !("L" in right)) throw validation(WRONG_TYPE);
      return { L: [...left.L, ...right.L] };
    }
    case "plus":
    case "minus":
      return arithmetic(v.kind, resolve(v.left, item), resolve(v.right, item));
    default:
      throw validation(WRONG_TYPE);
  }
}

/** The exact sum or difference; its range is checked once every action's operands are (see applyUpdate). */
function arithmetic(op: "plus" | "minus", a: AttributeValue, b: AttributeValue): AttributeValue {
  if (!("N" in a) || !("N" in b)) throw validation(WRONG_TYPE);
  const x = parseDecimal(a.N);
  const y = parseDecimal(b.N);
  return { N: formatDecimal(sumDecimal(x, op === "plus" ? y : negated(y))) };
}

function added(current: AttributeValue | undefined, v: AttributeValue): AttributeValue {
  if (current === undefined) return v;
  if (typeOf(current) !== typeOf(v)) throw validation(WRONG_TYPE);
  if ("N" in current) return arithmetic("plus", current, v);
  const t = typeOf(current);
  const members = payload(current) as string[];
  const have = new Set(members.map((m) => memberKey(t, m)));
  const extra = (payload(v) as string[]).filter((m) => !have.has(memberKey(t, m)));
  return { [t]: [...members, ...extra] } as AttributeValue;
}

function deleted(current: AttributeValue | undefined, v: AttributeValue): AttributeValue | undefined {
  if (current === undefined) return undefined;
  const t = typeOf(current);
  if (t !== typeOf(v)) throw validation(WRONG_TYPE);
  const drop = new Set((payload(v) as string[]).map((m) => memberKey(t, m)));
  const kept = (payload(current) as string[]).filter((m) => !drop.has(memberKey(t, m)));
  return kept.length === 0 ? undefined : ({ [t]: kept } as AttributeValue);
}
