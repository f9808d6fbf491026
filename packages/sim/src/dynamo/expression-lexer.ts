import { validation } from "./errors";

/** One token of a DynamoDB expression. */
export interface Token {
  kind: "name" | "alias" | "value" | "int" | "punct" | "end";
  text: string;
  at: number;
}

const PUNCT = ["<>", "<=", ">=", "=", "<", ">", "(", ")", "[", "]", ",", ".", "+", "-"];

/** Splits an expression into tokens; `label` names the expression in DynamoDB's error text. */
export function tokenize(source: string, label: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (/\s/.test(c)) {
      i += 1;
      continue;
    }
    const word = /^[#:]?[A-Za-z0-9_]+/.exec(source.slice(i));
    if (word) {
      out.push({ kind: kindOf(word[0]), text: word[0], at: i });
      i += word[0].length;
      continue;
    }
    const punct = PUNCT.find((p) => source.startsWith(p, i));
    if (!punct) throw validation(`Invalid ${label}: Invalid token: "${c}"`);
    out.push({ kind: "punct", text: punct, at: i });
    i += punct.length;
  }
  out.push({ kind: "end", text: "<EOF>", at: source.length });
  return out;
}

function kindOf(word: string): Token["kind"] {
  if (word.startsWith("#")) return "alias";
  if (word.startsWith(":")) return "value";
  if (/^[0-9]+$/.test(word)) return "int";
  return "name";
}

/** A cursor over tokens with DynamoDB's syntax-error message. */
export class TokenStream {
  private pos = 0;
  constructor(
    private readonly tokens: Token[],
    readonly label: string,
  ) {}

  peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)] as Token;
  }

  next(): Token {
    const t = this.peek();
    if (this.pos < this.tokens.length - 1) this.pos += 1;
    return t;
  }

  /** True (and consumed) when the next token is this punctuation or keyword (keywords ignore case). */
  accept(text: string): boolean {
    const t = this.peek();
    const same = t.kind === "name" ? t.text.toUpperCase() === text : t.kind === "punct" && t.text === text;
    if (same) this.next();
    return same;
  }

  expect(text: string): void {
    if (!this.accept(text)) throw this.syntaxError();
  }

  atKeyword(text: string): boolean {
    const t = this.peek();
    return t.kind === "name" && t.text.toUpperCase() === text;
  }

  /** DynamoDB's "Syntax error; token: ..., near: ..." for the current token. */
  syntaxError(): Error {
    const t = this.peek();
    if (t.kind === "end")
      return validation(`Invalid ${this.label}: Syntax error; token: "<EOF>", near: "${this.peek(-1).text}"`);
    const before = this.pos > 0 ? `${this.tokens[this.pos - 1]?.text} ` : "";
    const after = this.peek(1).kind === "end" ? "" : ` ${this.peek(1).text}`;
    return validation(
      `Invalid ${this.label}: Syntax error; token: "${t.text}", near: "${before}${t.text}${after}"`,
    );
  }
}
