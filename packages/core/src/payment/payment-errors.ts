import type { ProblemKind } from "@eo/contract";

/** The kinds of refusal the domain gives: the contract's problem kinds, mapped to HTTP in one place. */
export type RefusalKind = ProblemKind;

/** A refusal with a detail that tells the caller what to fix. */
export class Refusal extends Error {
  constructor(
    readonly kind: RefusalKind,
    readonly detail: string,
    readonly retryAfterS?: number,
  ) {
    super(detail);
    this.name = "Refusal";
  }
}

/** Finds a Refusal in an error or its causes (Powertools wraps what our persistence layer throws). */
export function findRefusal(err: unknown): Refusal | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    if (e instanceof Refusal) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
