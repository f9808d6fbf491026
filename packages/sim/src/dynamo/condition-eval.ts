import type { Condition, Operand } from "./expression-ast";
import { getPath } from "./paths";
import {
  type AttributeValue,
  compareScalars,
  type Item,
  memberKey,
  payload,
  type TypeTag,
  typeOf,
  valuesEqual,
} from "./values";

/** The value of an operand against an item; undefined when a path is missing or size() has no meaning. */
export function operandValue(o: Operand, item: Item | undefined): AttributeValue | undefined {
  if (o.kind === "value") return o.value;
  const v = getPath(item, o.path);
  if (o.kind === "path" || v === undefined) return v;
  const n = sizeOf(v);
  return n === undefined ? undefined : { N: String(n) };
}

function sizeOf(v: AttributeValue): number | undefined {
  const x = payload(v);
  switch (typeOf(v)) {
    case "S":
      return [...(x as string)].length;
    case "B":
      return Buffer.from(x as string, "base64").length;
    case "SS":
    case "NS":
    case "BS":
    case "L":
      return (x as unknown[]).length;
    case "M":
      return Object.keys(x as object).length;
    default:
      return undefined;
  }
}

/** Evaluates a condition against an item (undefined when the item does not exist). */
export function evaluate(c: Condition, item: Item | undefined): boolean {
  switch (c.kind) {
    case "and":
      return evaluate(c.left, item) && evaluate(c.right, item);
    case "or":
      return evaluate(c.left, item) || evaluate(c.right, item);
    case "not":
      return !evaluate(c.inner, item);
    case "compare":
      return compare(c.op, operandValue(c.left, item), operandValue(c.right, item));
    case "between": {
      const v = operandValue(c.subject, item);
      return compare(">=", v, operandValue(c.low, item)) && compare("<=", v, operandValue(c.high, item));
    }
    case "in": {
      const v = operandValue(c.subject, item);
      return v !== undefined && c.options.some((o) => compare("=", v, operandValue(o, item)));
    }
    default:
      return callFunction(c, item);
  }
}

function compare(op: string, a: AttributeValue | undefined, b: AttributeValue | undefined): boolean {
  // A missing operand makes every comparison false except <>, which holds (DynamoDB: `a <> :v` is true when a is absent).
  if (a === undefined || b === undefined) return op === "<>";
  if (op === "=") return valuesEqual(a, b);
  if (op === "<>") return !valuesEqual(a, b);
  const order = compareScalars(a, b);
  if (order === undefined) return false;
  if (op === "<") return order < 0;
  if (op === "<=") return order <= 0;
  if (op === ">") return order > 0;
  return order >= 0;
}

function callFunction(c: Condition & { kind: "function" }, item: Item | undefined): boolean {
  const [first, second] = c.args as [Operand, Operand | undefined];
  const v = operandValue(first, item);
  if (c.name === "attribute_exists") return v !== undefined;
  if (c.name === "attribute_not_exists") return v === undefined;
  const arg = second ? operandValue(second, item) : undefined;
  if (v === undefined || arg === undefined) return false;
  if (c.name === "attribute_type") return typeOf(v) === payload(arg);
  if (c.name === "begins_with") return beginsWith(v, arg);
  return contains(v, arg);
}

function beginsWith(v: AttributeValue, prefix: AttributeValue): boolean {
  if (typeOf(v) !== typeOf(prefix)) return false;
  if ("S" in v) return v.S.startsWith((prefix as { S: string }).S);
  if ("B" in v) {
    const bytes = Buffer.from(v.B, "base64");
    const p = Buffer.from((prefix as { B: string }).B, "base64");
    return bytes.subarray(0, p.length).equals(p);
  }
  return false;
}

const MEMBER_OF: Partial<Record<TypeTag, TypeTag>> = { SS: "S", NS: "N", BS: "B" };

function contains(v: AttributeValue, needle: AttributeValue): boolean {
  const t = typeOf(v);
  if (t === "S" && "S" in needle) return (v as { S: string }).S.includes(needle.S);
  if (t === "B" && "B" in needle)
    return Buffer.from((v as { B: string }).B, "base64").includes(Buffer.from(needle.B, "base64"));
  if (t === "L") return (v as { L: AttributeValue[] }).L.some((e) => valuesEqual(e, needle));
  const member = MEMBER_OF[t];
  if (member && typeOf(needle) === member) {
    const key = memberKey(t, payload(needle) as string);
    return (payload(v) as string[]).some((m) => memberKey(t, m) === key);
  }
  return false;
}
