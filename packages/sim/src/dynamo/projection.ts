import { validation } from "./errors";
import { type Path, pathText } from "./expression-ast";
import type { ExpressionContext } from "./expression-context";
import { TokenStream, tokenize } from "./expression-lexer";
import { ExpressionParser } from "./expression-parser";
import { pathsConflict, pathsOverlap } from "./paths";

const LABEL = "ProjectionExpression";

/**
 * Parses a ProjectionExpression into its paths, refusing overlapping or conflicting ones as DynamoDB does. As for an
 * update's targets, DynamoDB Local looks the names up from the last path back, checking each against the later ones
 * as it comes (so in `#undefined, a, a.b` the overlap is what it reports).
 */
export function parseProjection(source: string, ctx: ExpressionContext): Path[] {
  if (source.trim() === "") throw validation(`Invalid ${LABEL}: The expression can not be empty;`);
  const p = new ExpressionParser(new TokenStream(tokenize(source, LABEL), LABEL), ctx, true);
  const written = [p.path()];
  while (p.s.accept(",")) written.push(p.path());
  if (p.s.peek().kind !== "end") throw p.s.syntaxError();
  const paths: Path[] = new Array(written.length);
  for (let i = written.length - 1; i >= 0; i -= 1) {
    const a = (written[i] as Path).map((step) =>
      typeof step === "string" && step.startsWith("#") ? ctx.name(step, LABEL) : step,
    );
    for (let j = i + 1; j < written.length; j += 1) {
      const b = paths[j] as Path;
      const word = pathsOverlap(a, b) ? "overlap" : pathsConflict(a, b) ? "conflict" : undefined;
      if (word) {
        throw validation(
          `Invalid ${LABEL}: Two document paths ${word} with each other; must remove or rewrite one of these paths; path one: ${pathText(a)}, path two: ${pathText(b)}`,
        );
      }
    }
    paths[i] = a;
  }
  return paths;
}
