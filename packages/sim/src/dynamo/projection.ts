import { validation } from "./errors";
import { type Path, pathText } from "./expression-ast";
import type { ExpressionContext } from "./expression-context";
import { TokenStream, tokenize } from "./expression-lexer";
import { ExpressionParser } from "./expression-parser";
import { pathsConflict, pathsOverlap } from "./paths";

const LABEL = "ProjectionExpression";

/** Parses a ProjectionExpression into its paths, refusing overlapping or conflicting ones as DynamoDB does. */
export function parseProjection(source: string, ctx: ExpressionContext): Path[] {
  if (source.trim() === "") throw validation(`Invalid ${LABEL}: The expression can not be empty;`);
  const p = new ExpressionParser(new TokenStream(tokenize(source, LABEL), LABEL), ctx);
  const paths = [p.path()];
  while (p.s.accept(",")) paths.push(p.path());
  if (p.s.peek().kind !== "end") throw p.s.syntaxError();
  for (let i = 0; i < paths.length; i += 1) {
    for (let j = i + 1; j < paths.length; j += 1) {
      const a = paths[i] as Path;
      const b = paths[j] as Path;
      const word = pathsOverlap(a, b) ? "overlap" : pathsConflict(a, b) ? "conflict" : undefined;
      if (word) {
        throw validation(
          `Invalid ${LABEL}: Two document paths ${word} with each other; must remove or rewrite one of these paths; path one: ${pathText(a)}, path two: ${pathText(b)}`,
        );
      }
    }
  }
  return paths;
}
