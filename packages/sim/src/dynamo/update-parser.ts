import { validation } from "./errors";
import { type Operand, type Path, pathText, type SetValue, type UpdateAction } from "./expression-ast";
import type { ExpressionContext } from "./expression-context";
import { TokenStream, tokenize } from "./expression-lexer";
import { ExpressionParser } from "./expression-parser";
import { pathsConflict, pathsOverlap } from "./paths";
import { typeOf } from "./values";

const LABEL = "UpdateExpression";
const CLAUSES = ["SET", "REMOVE", "ADD", "DELETE"] as const;

/** An action as written: names not yet looked up, values pending. */
type Draft =
  | { kind: "SET"; path: Path; value: SetValue }
  | { kind: "REMOVE"; path: Path }
  | { kind: "ADD" | "DELETE"; path: Path; operand: Operand & { kind: "value" } };

/**
 * Parses an UpdateExpression into its actions, refusing what DynamoDB refuses before touching any item, in DynamoDB
 * Local's order: the syntax of the whole expression first; then, from the last action back to the first, the names
 * of each target path and whether it overlaps a later one; then, again from the last action back, each action's
 * operands (names and values, left to right) and then their types.
 */
export function parseUpdate(source: string, ctx: ExpressionContext): UpdateAction[] {
  if (source.trim() === "") throw validation(`Invalid ${LABEL}: The expression can not be empty;`);
  const p = new ExpressionParser(new TokenStream(tokenize(source, LABEL), LABEL), ctx, true);
  const seen = new Set<string>();
  const drafts: Draft[] = [];
  while (p.s.peek().kind !== "end") {
    const clause = CLAUSES.find((c) => p.s.accept(c));
    if (!clause) throw p.s.syntaxError();
    if (seen.has(clause)) {
      throw validation(
        `Invalid ${LABEL}: The "${clause}" section can only be used once in an update expression;`,
      );
    }
    seen.add(clause);
    do drafts.push(action(p, clause));
    while (p.s.accept(","));
  }
  const targets = resolveTargets(drafts, ctx);
  const actions: UpdateAction[] = new Array(drafts.length);
  for (let i = drafts.length - 1; i >= 0; i -= 1)
    actions[i] = resolveAction(drafts[i] as Draft, targets[i] as Path, ctx);
  return actions;
}

function action(p: ExpressionParser, clause: (typeof CLAUSES)[number]): Draft {
  const path = p.path();
  if (clause === "REMOVE") return { kind: "REMOVE", path };
  if (clause === "SET") {
    p.s.expect("=");
    return { kind: "SET", path, value: setValue(p) };
  }
  const operand = p.operand();
  if (operand.kind !== "value") throw p.s.syntaxError();
  return { kind: clause, path, operand };
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
    return { kind, left, right: term(p) };
  }
  return left;
}

const CONDITION_FUNCTIONS = [
  "size",
  "attribute_exists",
  "attribute_not_exists",
  "attribute_type",
  "begins_with",
  "contains",
];

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
      return { kind: "list_append", left, right };
    }
    if (CONDITION_FUNCTIONS.includes(t.text)) {
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

function resolvePath(path: Path, ctx: ExpressionContext): Path {
  // While deferred, the parser kept `#alias` as written; a bare name never starts with '#'.
  return path.map((step) =>
    typeof step === "string" && step.startsWith("#") ? ctx.name(step, LABEL) : step,
  );
}

/** The target paths, looked up from the last action back, each checked against the later ones as it comes. */
function resolveTargets(drafts: Draft[], ctx: ExpressionContext): Path[] {
  const targets: Path[] = new Array(drafts.length);
  for (let i = drafts.length - 1; i >= 0; i -= 1) {
    const a = resolvePath((drafts[i] as Draft).path, ctx);
    for (let j = i + 1; j < drafts.length; j += 1) {
      const b = targets[j] as Path;
      const word = pathsOverlap(a, b) ? "overlap" : pathsConflict(a, b) ? "conflict" : undefined;
      if (word) {
        throw validation(
          `Invalid ${LABEL}: Two document paths ${word} with each other; must remove or rewrite one of these paths; path one: ${pathText(a)}, path two: ${pathText(b)}`,
        );
      }
    }
    targets[i] = a;
  }
  return targets;
}

/** One action with its operands looked up (names and values, left to right), then their types checked. */
function resolveAction(draft: Draft, path: Path, ctx: ExpressionContext): UpdateAction {
  if (draft.kind === "REMOVE") return { kind: "REMOVE", path };
  if (draft.kind === "SET") {
    const value = resolveValue(draft.value, ctx);
    checkTypes(value);
    return { kind: "SET", path, value };
  }
  const value = ctx.value(draft.operand.placeholder as string, LABEL);
  const t = typeOf(value);
  const allowed = draft.kind === "ADD" ? ["N", "SS", "NS", "BS"] : ["SS", "NS", "BS"];
  if (!allowed.includes(t)) {
    throw validation(
      `Invalid ${LABEL}: Incorrect operand type for operator or function; operator: ${draft.kind}, operand type: ${TYPE_WORDS[t] ?? t}, typeSet: ALLOWED_FOR_${draft.kind}_OPERAND`,
    );
  }
  return { kind: draft.kind, path, value };
}

function resolveValue(v: SetValue, ctx: ExpressionContext): SetValue {
  switch (v.kind) {
    case "value":
      return { ...v, value: ctx.value(v.placeholder as string, LABEL) };
    case "path":
    case "size":
      return { ...v, path: resolvePath(v.path, ctx) };
    case "if_not_exists": {
      const path = resolvePath(v.path, ctx);
      return { kind: v.kind, path, fallback: resolveValue(v.fallback, ctx) };
    }
    default: {
      const left = resolveValue(v.left, ctx);
      return { kind: v.kind, left, right: resolveValue(v.right, ctx) };
    }
  }
}

/** Refuses a literal of the wrong type next to +, - or list_append before any item is read, as DynamoDB does. */
function checkTypes(v: SetValue): void {
  if (v.kind === "if_not_exists") checkTypes(v.fallback);
  if (v.kind !== "plus" && v.kind !== "minus" && v.kind !== "list_append") return;
  checkTypes(v.left);
  checkTypes(v.right);
  const [op, want] = v.kind === "list_append" ? ["list_append", "L"] : [v.kind === "plus" ? "+" : "-", "N"];
  for (const o of [v.left, v.right]) {
    if (o.kind === "value" && typeOf(o.value) !== want) {
      throw validation(
        `Invalid ${LABEL}: Incorrect operand type for operator or function; operator or function: ${op}, operand type: ${typeOf(o.value)}`,
      );
    }
  }
}
