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

/**
 * 409 key-voided: resolve voided this key. `voidEpoch` is the Region epoch the void was written under (undefined
 * for a claim's void, which carries none: the first epoch), so that POST /payments can check an earlier one at
 * the PSP before it answers (see `answerVoidedKey`).
 */
export class KeyVoided extends Refusal {
  constructor(readonly voidEpoch?: number) {
    super("key-voided", "this key was voided by resolve; use a new key");
    this.name = "KeyVoided";
  }
}
