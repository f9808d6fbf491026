import { validation } from "./errors";
import {
  type Comparator,
  type Condition,
  type ConditionFunction,
  type Operand,
  type Path,
  pathText,
  samePath,
} from "./expression-ast";
import type { ExpressionContext } from "./expression-context";
import { TokenStream, tokenize } from "./expression-lexer";
import { checkNotReserved } from "./reserved-words";
import { type AttributeValue, compareScalars, payload, typeOf } from "./values";

/** A value as DynamoDB's messages print it: `{N:5}`, a number spelt as the request wrote it (`{N:1E+2}`). */
function literalText(o: Operand & { kind: "value" }, ctx: ExpressionContext): string {
  const written = o.placeholder === undefined ? undefined : ctx.written(o.placeholder);
  const t = typeOf(o.value);
  const text = t === "N" ? (written as { N?: unknown } | undefined)?.N : undefined;
  return `{${t}:${String(text ?? payload(o.value))}}`;
}

/** A placeholder's stand-in while an update expression is parsed before its values are looked up. */
const PENDING: AttributeValue = { NULL: true };

/** The grammar's own words: where a name should be, DynamoDB reports them as a syntax error, not a reserved word. */
const KEYWORDS = new Set(["AND", "OR", "NOT", "BETWEEN", "IN", "SET", "REMOVE", "ADD", "DELETE"]);
const COMPARATORS = new Set(["=", "<>", "<", "<=", ">", ">="]);
const FUNCTIONS = new Set([
  "attribute_exists",
  "attribute_not_exists",
  "attribute_type",
  "begins_with",
  "contains",
]);

/** Parses a condition, filter or key-condition expression; `label` is its name in DynamoDB's error messages. */
export function parseCondition(source: string, ctx: ExpressionContext, label: string): Condition {
  if (source.trim() === "") throw validation(`Invalid ${label}: The expression can not be empty;`);
  const p = new ExpressionParser(new TokenStream(tokenize(source, label), label), ctx);
  const cond = p.condition();
  if (p.s.peek().kind !== "end") throw p.s.syntaxError();
  return cond;
}

/** The recursive-descent parser shared by condition, update and projection expressions. */
export class ExpressionParser {
  /**
   * `deferred`: leave `#names` as written and `:values` pending (an update expression looks them up after its syntax
   * and its paths, as DynamoDB does); otherwise each is looked up where it is read.
   */
  constructor(
    readonly s: TokenStream,
    readonly ctx: ExpressionContext,
    readonly deferred = false,
  ) {}

  condition(): Condition {
    let left = this.conjunction();
    while (this.s.accept("OR")) left = { kind: "or", left, right: this.conjunction() };
    return left;
  }

  private conjunction(): Condition {
    let left = this.negation();
    while (this.s.accept("AND")) left = { kind: "and", left, right: this.negation() };
    return left;
  }

  private negation(): Condition {
    if (this.s.accept("NOT")) return { kind: "not", inner: this.negation() };
    return this.primary();
  }

  private primary(): Condition {
    if (this.s.accept("(")) {
      const inner = this.condition();
      this.s.expect(")");
      return inner;
    }
    const t = this.s.peek();
    if (t.kind === "name" && FUNCTIONS.has(t.text) && this.s.peek(1).text === "(") return this.call();
    const subject = this.operand();
    if (this.s.accept("BETWEEN")) {
      const low = this.operand();
      this.s.expect("AND");
      return this.between(subject, low, this.operand());
    }
    if (this.s.accept("IN")) {
      const options = this.operandList();
      this.checkDistinct("IN", subject, options);
      return { kind: "in", subject, options };
    }
    const op = this.s.peek();
    if (op.kind !== "punct" || !COMPARATORS.has(op.text)) throw this.s.syntaxError();
    this.s.next();
    const right = this.operand();
    this.checkDistinct(op.text, subject, [right]);
    this.checkOrdered(op.text, [subject, right]);
    return { kind: "compare", op: op.text as Comparator, left: subject, right };
  }

  private between(subject: Operand, low: Operand, high: Operand): Condition {
    this.checkDistinct("BETWEEN", subject, [low, high]);
    this.checkOrdered("BETWEEN", [subject, low, high]);
    if (low.kind === "value" && high.kind === "value") {
      const bounds = `lower bound operand: AttributeValue: ${literalText(low, this.ctx)}, upper bound operand: AttributeValue: ${literalText(high, this.ctx)}`;
      if (typeOf(low.value) !== typeOf(high.value)) {
        throw validation(
          `Invalid ${this.s.label}: The BETWEEN operator requires same data type for lower and upper bounds; ${bounds}`,
        );
      }
      const order = compareScalars(low.value, high.value);
      if (order !== undefined && order > 0) {
        throw validation(
          `Invalid ${this.s.label}: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; ${bounds}`,
        );
      }
    }
    return { kind: "between", subject, low, high };
  }

  private operandList(): Operand[] {
    this.s.expect("(");
    const list = [this.operand()];
    while (this.s.accept(",")) list.push(this.operand());
    this.s.expect(")");
    if (list.length > 100)
      throw validation(
        `Invalid ${this.s.label}: The IN operator is provided with too many operands; number of operands: ${list.length}`,
      );
    return list;
  }

  private call(): Condition {
    const name = this.s.next().text as ConditionFunction;
    this.s.expect("(");
    const args = [this.operand()];
    while (this.s.accept(",")) args.push(this.operand());
    this.s.expect(")");
    const arity = name === "attribute_exists" || name === "attribute_not_exists" ? 1 : 2;
    if (args.length !== arity) {
      throw validation(
        `Invalid ${this.s.label}: Incorrect number of operands for operator or function; operator or function: ${name}, number of operands: ${args.length}`,
      );
    }
    if (args[0]?.kind !== "path") {
      throw validation(
        `Invalid ${this.s.label}: Operator or function requires a document path; operator or function: ${name}`,
      );
    }
    this.checkDistinct(name, args[0] as Operand, args.slice(1));
    this.checkFunctionTypes(name, args);
    return { kind: "function", name, args };
  }

  /** Refuses a path compared with itself (`a = a`, `a BETWEEN a AND :v`, `begins_with(a, a)`), as DynamoDB does. */
  private checkDistinct(op: string, first: Operand, rest: Operand[]): void {
    if (first.kind !== "path") return;
    if (!rest.some((o) => o.kind === "path" && samePath(o.path, first.path))) return;
    throw validation(
      `Invalid ${this.s.label}: The first operand must be distinct from the remaining operands for this operator or function; operator: ${op}, first operand: ${pathText(first.path)}`,
    );
  }

  private checkFunctionTypes(name: ConditionFunction, args: Operand[]): void {
    const arg = args[1];
    if (arg?.kind !== "value") return;
    const t = typeOf(arg.value);
    if (name === "begins_with" && t !== "S" && t !== "B") throw this.operandType(name, t);
    if (name === "attribute_type") {
      if (t !== "S") throw this.operandType(name, t);
      const wanted = (arg.value as { S: string }).S;
      if (!["S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"].includes(wanted)) {
        throw validation(
          `Invalid ${this.s.label}: Invalid attribute type name found; type: ${wanted}, valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}`,
        );
      }
    }
  }

  /** Refuses a literal of an unordered type (map, list, set, bool, null) next to <, <=, >, >= or BETWEEN. */
  private checkOrdered(op: string, operands: Operand[]): void {
    if (op === "=" || op === "<>") return;
    for (const o of operands) {
      if (o.kind !== "value") continue;
      const t = typeOf(o.value);
      if (t !== "S" && t !== "N" && t !== "B") throw this.operandType(op, t);
    }
  }

  private operandType(op: string, t: string): Error {
    return validation(
      `Invalid ${this.s.label}: Incorrect operand type for operator or function; operator or function: ${op}, operand type: ${t}`,
    );
  }

  operand(): Operand {
    const t = this.s.peek();
    if (t.kind === "value") {
      this.s.next();
      const value = this.deferred ? PENDING : this.ctx.value(t.text, this.s.label);
      return { kind: "value", value, placeholder: t.text };
    }
    if (t.kind === "name" && t.text === "size" && this.s.peek(1).text === "(") {
      this.s.next();
      this.s.expect("(");
      const inner = this.operand();
      this.s.expect(")");
      if (inner.kind !== "path")
        throw validation(
          `Invalid ${this.s.label}: Operator or function requires a document path; operator or function: size`,
        );
      return { kind: "size", path: inner.path };
    }
    return { kind: "path", path: this.path() };
  }

  /** A document path: `a.#b[0].c`, names resolved through the context. */
  path(): Path {
    const out: Path = [this.element()];
    for (;;) {
      if (this.s.accept(".")) out.push(this.element());
      else if (this.s.accept("[")) {
        const index = this.s.next();
        if (index.kind !== "int") throw this.s.syntaxError();
        this.s.expect("]");
        out.push(Number(index.text));
      } else return out;
    }
  }

  private element(): string {
    const t = this.s.peek();
    if (t.kind === "alias") {
      this.s.next();
      return this.deferred ? t.text : this.ctx.name(t.text, this.s.label);
    }
    if (t.kind !== "name" || KEYWORDS.has(t.text.toUpperCase())) throw this.s.syntaxError();
    checkNotReserved(t.text, this.s.label);
    this.s.next();
    return t.text;
  }
}
