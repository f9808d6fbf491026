import { validation } from "./errors";
import { pathText, type SetValue, type UpdateAction } from "./expression-ast";
import type { ExpressionContext } from "./expression-context";
import { TokenStream, tokenize } from "./expression-lexer";
import { ExpressionParser } from "./expression-parser";
import { pathsConflict, pathsOverlap } from "./paths";
import { typeOf } from "./values";

const LABEL = "UpdateExpression";
const CLAUSES = ["SET", "REMOVE", "ADD", "DELETE"] as const;

/** Parses an UpdateExpression into its actions, refusing what DynamoDB refuses before touching any item. */
export function parseUpdate(source: string, ctx: ExpressionContext): UpdateAction[] {
  if (source.trim() === "") throw validation(`Invalid ${LABEL}: The expression can not be empty;`);
  const p = new ExpressionParser(new TokenStream(tokenize(source, LABEL), LABEL), ctx);
  const seen = new Set<string>();
  const actions: UpdateAction[] = [];
  while (p.s.peek().kind !== "end") {
    const clause = CLAUSES.find((c) => p.s.accept(c));
    if (!clause) throw p.s.syntaxError();
    if (seen.has(clause)) {
      throw validation(
        `Invalid ${LABEL}: The "${clause}" section can only be used once in an update expression;`,
      );
    }
    seen.add(clause);
    do actions.push(action(p, clause));
    while (p.s.accept(","));
  }
  checkPaths(actions);
  return actions;
}

function action(p: ExpressionParser, clause: (typeof CLAUSES)[number]): UpdateAction {
  const path = p.path();
  if (clause === "REMOVE") return { kind: "REMOVE", path };
  if (clause === "SET") {
    p.s.expect("=");
    return { kind: "SET", path, value: setValue(p) };
  }
  const operand = p.operand();
  if (operand.kind !== "value") throw p.s.syntaxError();
  const t = typeOf(operand.value);
  const allowed = clause === "ADD" ? ["N", "SS", "NS", "BS"] : ["SS", "NS", "BS"];
  if (!allowed.includes(t)) {
    throw validation(
      `Invalid ${LABEL}: Incorrect operand type for operator or function; operator: ${clause}, operand type: ${TYPE_WORDS[t] ?? t}, typeSet: ALLOWED_FOR_${clause}_OPERAND`,
    );
  }
  return { kind: clause, path, value: operand.value };
}

/** The type words DynamoDB's update messages use. */
export const TYPE_WORDS: Record<string, string> = {
  S: "STRING",
  N: "NUMBER",
  B: "BINARY",
  BOOL: "BOOLEAN",
  NULL: "NULL",
  M: "MAP",
  L: "LIST",
  SS: "STRING_SET",
  NS: "NUMBER_SET",
  BS: "BINARY_SET",
};

function setValue(p: ExpressionParser): SetValue {
  const left = term(p);
  for (const [sign, kind] of [
    ["+", "plus"],
    ["-", "minus"],
  ] as const) {
    if (!p.s.accept(sign)) continue;
    const right = term(p);
    requireType(sign, [left, right], "N");
    return { kind, left, right };
  }
  return left;
}

/** Refuses a literal of the wrong type next to +, - or list_append before any item is read, as DynamoDB does. */
function requireType(op: string, operands: SetValue[], want: string): void {
  for (const o of operands) {
    if (o.kind === "value" && typeOf(o.value) !== want) {
      throw validation(
        `Invalid ${LABEL}: Incorrect operand type for operator or function; operator or function: ${op}, operand type: ${typeOf(o.value)}`,
      );
    }
  }
}

function term(p: ExpressionParser): SetValue {
  const t = p.s.peek();
  if (t.kind === "name" && p.s.peek(1).text === "(") {
    if (t.text === "if_not_exists") {
      p.s.next();
      p.s.expect("(");
      const path = p.path();
      p.s.expect(",");
      const fallback = term(p);
      p.s.expect(")");
      return { kind: "if_not_exists", path, fallback };
    }
    if (t.text === "list_append") {
      p.s.next();
      p.s.expect("(");
      const left = term(p);
      p.s.expect(",");
      const right = term(p);
      p.s.expect(")");
      requireType("list_append", [left, right], "L");
      return { kind: "list_append", left, right };
    }
    if (
      [
        "size",
        "attribute_exists",
        "attribute_not_exists",
        "attribute_type",
        "begins_with",
        "contains",
      ].includes(t.text)
    ) {
      throw validation(
        `Invalid ${LABEL}: The function is not allowed in an update expression; function: ${t.text}`,
      );
    }
    throw validation(`Invalid ${LABEL}: Invalid function name; function: ${t.text}`);
  }
  const o = p.operand();
  if (o.kind === "size")
    throw validation(`Invalid ${LABEL}: The function is not allowed in an update expression; function: size`);
  return o;
}

function checkPaths(actions: UpdateAction[]): void {
  for (let i = 0; i < actions.length; i += 1) {
    for (let j = i + 1; j < actions.length; j += 1) {
      const a = (actions[i] as UpdateAction).path;
      const b = (actions[j] as UpdateAction).path;
      if (pathsOverlap(a, b)) {
        throw validation(
          `Invalid ${LABEL}: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: ${pathText(a)}, path two: ${pathText(b)}`,
        );
      }
      if (pathsConflict(a, b)) {
        throw validation(
          `Invalid ${LABEL}: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: ${pathText(a)}, path two: ${pathText(b)}`,
        );
      }
    }
  }
}
