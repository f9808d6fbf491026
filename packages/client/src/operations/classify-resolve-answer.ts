import { check, ResolveResult } from "@eo/contract";
import type { Runtime } from "../client-options";
import type { Attempt } from "../http/send-attempt";
import type { ResolveOutcome } from "../results";
import type { Verdict } from "../retry/retry-loop";
import { transient } from "../retry/transient";
import { refusedAnswer, unexpected } from "./refusal";

/** What one attempt of resolve() knew: the order, the key it asked about and its number. */
export interface ResolveAttempt {
  order_id: string;
  key: string;
  attempts: number;
}

/**
 * Classifies an answer to POST /payments/resolve: 200 with a state is final, the transient ones are retried,
 * any other 4xx is refused.
 */
export function resolveVerdict(rt: Runtime, attempt: Attempt, at: ResolveAttempt): Verdict<ResolveOutcome> {
  const again = transient(rt, attempt);
  if (again || attempt.kind !== "answer") return { again: again ?? { why: attempt.kind } };
  if (attempt.status >= 400) return { final: refusedAnswer(attempt, "rejected", at) };
  const body = check(ResolveResult, attempt.body);
  if (attempt.status !== 200 || !body.ok) return unexpected(attempt);
  const { state, payment_id } = body.value;
  if (state === "VOID") return { final: { kind: "voided", next: "pay", ...at, body: body.value } };
  if (state === "PROCESSING")
    return { final: { kind: "processing", next: "resolve", ...at, payment_id, body: body.value } };
  const kind = state === "SUCCEEDED" ? "succeeded" : "declined";
  return { final: { kind, ...at, payment_id, body: body.value } };
}
