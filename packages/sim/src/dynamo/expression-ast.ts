import type { AttributeValue } from "./values";

/** A document path with its names resolved: map keys are strings, list indexes numbers. */
export type Path = Array<string | number>;

/** An operand of a condition or update expression. */
export type Operand =
  | { kind: "path"; path: Path }
  | { kind: "value"; value: AttributeValue; placeholder?: string }
  | { kind: "size"; path: Path };

/** A comparison operator of a condition expression. */
export type Comparator = "=" | "<>" | "<" | "<=" | ">" | ">=";

/** A parsed condition (also a filter or a key condition). */
export type Condition =
  | { kind: "compare"; op: Comparator; left: Operand; right: Operand }
  | { kind: "between"; subject: Operand; low: Operand; high: Operand }
  | { kind: "in"; subject: Operand; options: Operand[] }
  | { kind: "and" | "or"; left: Condition; right: Condition }
  | { kind: "not"; inner: Condition }
  | { kind: "function"; name: ConditionFunction; args: Operand[] };

/** The functions a condition may call. */
export type ConditionFunction =
  | "attribute_exists"
  | "attribute_not_exists"
  | "attribute_type"
  | "begins_with"
  | "contains";

/** The right side of a SET action. */
export type SetValue =
  | Operand
  | { kind: "plus" | "minus"; left: SetValue; right: SetValue }
  | { kind: "if_not_exists"; path: Path; fallback: SetValue }
  | { kind: "list_append"; left: SetValue; right: SetValue };

/** One action of an update expression. */
export type UpdateAction =
  | { kind: "SET"; path: Path; value: SetValue }
  | { kind: "REMOVE"; path: Path }
  | { kind: "ADD" | "DELETE"; path: Path; value: AttributeValue };

/** True when two paths name the same element. */
export function samePath(a: Path, b: Path): boolean {
  return a.length === b.length && a.every((step, i) => step === b[i]);
}

/** Renders a path as DynamoDB's messages do: `[a, b, [0]]`. */
export function pathText(path: Path): string {
  return `[${path.map((p) => (typeof p === "number" ? `[${p}]` : p)).join(", ")}]`;
}
