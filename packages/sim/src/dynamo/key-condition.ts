import { validation } from "./errors";
import type { Condition, Operand } from "./expression-ast";
import type { KeySchema } from "./table";
import { type AttributeValue, compareScalars, type Item, typeOf } from "./values";

/** A Query's key condition, reduced to the partition value and an optional test on the sort key. */
export interface KeyCondition {
  hash: AttributeValue;
  range?: (v: AttributeValue) => boolean;
}

interface Part {
  name: string;
  test: (v: AttributeValue) => boolean;
  equal?: AttributeValue;
}

/** Reduces a parsed KeyConditionExpression against the key schema, refusing what DynamoDB refuses. */
export function keyCondition(c: Condition, key: KeySchema, types: Record<string, string>): KeyCondition {
  const parts = c.kind === "and" ? [part(c.left), part(c.right)] : [part(c)];
  if (c.kind === "and" && (c.left.kind === "and" || c.right.kind === "and")) {
    throw validation("Conditions can be of length 1 or 2 only");
  }
  if (parts.length === 2 && parts[0]?.name === parts[1]?.name) {
    throw validation("KeyConditionExpressions must only contain one condition per key");
  }
  const hashPart = parts.find((p) => p.name === key.hash);
  // DynamoDB Local's words; the service appends ": <attribute>".
  if (!hashPart) throw validation("Query condition missed key schema element");
  if (!hashPart.equal) throw validation("Query key condition not supported");
  const rangePart = parts.find((p) => p !== hashPart);
  if (rangePart && rangePart.name !== key.range) {
    throw validation(
      key.range ? "Query condition missed key schema element" : "Query key condition not supported",
    );
  }
  for (const p of parts) checkType(p, types[p.name]);
  return { hash: hashPart.equal, ...(rangePart ? { range: rangePart.test } : {}) };
}

function checkType(p: Part & { values?: AttributeValue[] }, want: string | undefined): void {
  for (const v of p.values ?? []) {
    if (typeOf(v) !== want)
      throw validation(
        "One or more parameter values were invalid: Condition parameter type does not match schema type",
      );
    if (("S" in v && v.S === "") || ("B" in v && v.B === "")) {
      throw validation(
        `One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty ${"S" in v ? "string" : "binary"} value. Key: ${p.name}`,
      );
    }
  }
}

function attribute(o: Operand): string {
  if (o.kind !== "path" || o.path.length !== 1 || typeof o.path[0] !== "string") {
    throw validation(
      "Invalid KeyConditionExpression: Key condition must be on key attributes (no nested paths or size())",
    );
  }
  return o.path[0];
}

function literal(o: Operand): AttributeValue {
  if (o.kind !== "value")
    throw validation("Invalid KeyConditionExpression: Key conditions compare a key attribute with a value");
  return o.value;
}

function part(c: Condition): Part & { values: AttributeValue[] } {
  if (c.kind === "compare") {
    if (c.op === "<>") throw validation("Unsupported operator in KeyConditionExpression: <>");
    const name = attribute(c.left);
    const v = literal(c.right);
    const op = c.op;
    const test = (x: AttributeValue) => {
      const order = compareScalars(x, v);
      if (order === undefined) return false;
      return op === "="
        ? order === 0
        : op === "<"
          ? order < 0
          : op === "<="
            ? order <= 0
            : op === ">"
              ? order > 0
              : order >= 0;
    };
    return { name, test, values: [v], ...(op === "=" ? { equal: v } : {}) };
  }
  if (c.kind === "between") {
    const name = attribute(c.subject);
    const lo = literal(c.low);
    const hi = literal(c.high);
    const test = (x: AttributeValue) =>
      (compareScalars(x, lo) ?? -1) >= 0 && (compareScalars(x, hi) ?? 1) <= 0;
    return { name, test, values: [lo, hi] };
  }
  if (c.kind === "function" && c.name === "begins_with") {
    const name = attribute(c.args[0] as Operand);
    const prefix = literal(c.args[1] as Operand);
    const test = (x: AttributeValue) => {
      if ("S" in x && "S" in prefix) return x.S.startsWith(prefix.S);
      if ("B" in x && "B" in prefix)
        return Buffer.from(x.B, "base64")
          .subarray(0, Buffer.from(prefix.B, "base64").length)
          .equals(Buffer.from(prefix.B, "base64"));
      return false;
    };
    return { name, test, values: [prefix] };
  }
  if (c.kind === "function") throw validation(`Invalid operator used in KeyConditionExpression: ${c.name}`);
  throw validation(`Invalid operator used in KeyConditionExpression: ${c.kind.toUpperCase()}`);
}

/** True when an item belongs to the queried partition and passes the sort-key test. */
export function matchesKey(item: Item, key: KeySchema, kc: KeyCondition): boolean {
  const h = item[key.hash];
  if (!h || compareScalars(h, kc.hash) !== 0) return false;
  if (!kc.range) return true;
  const r = key.range ? item[key.range] : undefined;
  return r !== undefined && kc.range(r);
}
