import { addDecimal, formatDecimal, parseDecimal, subtractDecimal } from "./decimal";
import { validation } from "./errors";
import type { Path, SetValue, UpdateAction } from "./expression-ast";
import { getPath, parentOf, removePath, setPath } from "./paths";
import { type AttributeValue, cloneItem, type Item, memberKey, payload, typeOf } from "./values";

const WRONG_TYPE = "An operand in the update expression has an incorrect data type";

/**
 * Applies update actions to a copy of the item. Every right-hand side reads the item as it was before the update
 * (DynamoDB's rule: `SET a = :x, b = a` gives b the old a), then the writes land. When several actions would fail
 * (a target under a missing or wrong-kind parent, a missing operand, an operand of the wrong type
 * or a result out of the number range) DynamoDB Local reports one of them by an order of its own (see
 * evaluationOrder).
 */
export function applyUpdate(before: Item, actions: UpdateAction[]): Item {
  const results = new Map<UpdateAction, AttributeValue | undefined>();
  for (const a of evaluationOrder(actions).reverse()) {
    parentOf(before, a.path);
    if (a.kind === "SET") results.set(a, resolve(a.value, before));
    else if (a.kind === "ADD") results.set(a, added(getPath(before, a.path), a.value));
    else if (a.kind === "DELETE") results.set(a, deleted(getPath(before, a.path), a.value));
  }
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

/**
 * Where the order DynamoDB Local evaluates an update's actions in puts each top-level attribute name, measured
 * against DynamoDB Local for the names this project and the differential corpus write: Local reports the failure
 * of the action that comes last in this order (ties: the later one in the expression), whatever the action's
 * clause or the depth of its path. The order is not the expression's and not alphabetical (it behaves like the
 * iteration of a hash table of the names); a name not listed here is put first, in the expression's order.
 */
const LOCAL_EVALUATION_RANK: Record<string, number> = {
  bpk: 0,
  list: 2,
  nums: 2,
  version: 2,
  gsi1pk: 7,
  state: 7,
  btag: 8,
  sk: 9,
  data: 10,
  expiration: 10,
  gsi1sk: 10,
  members: 11,
  nothing: 11,
  amount: 12,
  pk: 12,
  flag: 13,
  note: 15,
};

/** The actions in DynamoDB Local's evaluation order (see LOCAL_EVALUATION_RANK); a stable sort keeps ties in order. */
function evaluationOrder(actions: UpdateAction[]): UpdateAction[] {
  const rank = (a: UpdateAction) => LOCAL_EVALUATION_RANK[String(a.path[0])] ?? -1;
  return [...actions].sort((x, y) => rank(x) - rank(y));
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

function arithmetic(op: "plus" | "minus", a: AttributeValue, b: AttributeValue): AttributeValue {
  if (!("N" in a) || !("N" in b)) throw validation(WRONG_TYPE);
  const x = parseDecimal(a.N);
  const y = parseDecimal(b.N);
  return { N: formatDecimal(op === "plus" ? addDecimal(x, y) : subtractDecimal(x, y)) };
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
