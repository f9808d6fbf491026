import type { ProviderVerdict } from "./provider-errors";

/** What is left of the invocation: the Lambda context's remaining time. */
export interface TimeBudget {
  remainingMs(): number;
}

/** How a transient provider error is retried inside one invocation. */
export interface RetryPolicy {
  /** Attempts at most, the first included. */
  maxAttempts: number;
  /** The first backoff; each next one doubles, with jitter. */
  baseDelayMs: number;
  /** Time kept back for the rest of the batch and for the runtime to answer; no retry eats into it. */
  reserveMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 100, reserveMs: 1_000 };

/** The answer of a send: the provider's value, or its permanent refusal. */
export type SendResult<T> =
  | { ok: true; value: T; retries: number }
  | { ok: false; refusal: ProviderVerdict; retries: number };

/**
 * Runs a provider call: a permanent refusal is answered (for the caller to mark the intent FAILED); a transient
 * error is retried with backoff while the budget allows, then thrown, so the event is left for redelivery.
 */
export async function sendWithinBudget<T>(
  send: () => Promise<T>,
  classify: (err: unknown) => ProviderVerdict,
  budget: TimeBudget,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<SendResult<T>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { ok: true, value: await send(), retries: attempt - 1 };
    } catch (err) {
      const verdict = classify(err);
      if (verdict.permanent) return { ok: false, refusal: verdict, retries: attempt - 1 };
      const delay = policy.baseDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2);
      if (attempt >= policy.maxAttempts || budget.remainingMs() - delay < policy.reserveMs) throw err;
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

/** A budget of `ms` from now, for callers without a Lambda context (scripts, tests). */
export function budgetOf(ms: number): TimeBudget {
  const until = Date.now() + ms;
  return { remainingMs: () => until - Date.now() };
}
