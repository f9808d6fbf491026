import { check, PaymentDeclined, PaymentProcessing, PaymentSucceeded } from "@eo/contract";
import type { Runtime } from "../client-options";
import type { Attempt } from "../http/send-attempt";
import type { PayResult } from "../results";
import { retryAfterMs } from "../retry/backoff";
import type { Verdict } from "../retry/retry-loop";
import { problemKind, transient } from "../retry/transient";
import { refusedAnswer, unexpected } from "./refusal";

/** What one attempt of pay() knew: the order, the key it sent and its number. */
export interface PayAttempt {
  order_id: string;
  key: string;
  attempts: number;
}

const FINGERPRINT_BUG =
  "client bug: this key was already used for a different request (the order changed after its key was made); nothing ran. Never retry it: pay a changed order under a new order_id";

function finalAnswer(answer: Extract<Attempt, { kind: "answer" }>, at: PayAttempt): PayResult | undefined {
  if (answer.status === 201) {
    const body = check(PaymentSucceeded, answer.body);
    if (!body.ok) return undefined;
    const replayed = answer.headers.get("idempotent-replayed") === "true";
    return { kind: "succeeded", ...at, payment_id: body.value.payment_id, replayed, body: body.value };
  }
  if (answer.status === 402) {
    const body = check(PaymentDeclined, answer.body);
    if (!body.ok) return undefined;
    const { payment_id, decline_code } = body.value;
    return { kind: "declined", ...at, payment_id, decline_code, body: body.value };
  }
  // An amount under the PSP's minimum is a request the server will never run, not a key reused.
  if (answer.status === 422 && problemKind(answer) === "amount-below-minimum")
    return refusedAnswer(answer, "invalid-request", at);
  if (answer.status === 422) return refusedAnswer(answer, "fingerprint-mismatch", at, FINGERPRINT_BUG);
  return undefined;
}

/**
 * Classifies an answer to POST /payments: 201 and 402 are final; 202 is polled; 409 key-voided is asked of
 * resolve (`askResolve`, never final on its own); the transient ones are retried; any other 4xx is refused. A 2xx
 * whose body does not parse is not trusted as an outcome, so it is retried like no answer.
 */
export function payVerdict(
  rt: Runtime,
  attempt: Attempt,
  at: PayAttempt,
): Verdict<PayResult> & { processing?: PaymentProcessing; askResolve?: true } {
  const again = transient(rt, attempt);
  if (again || attempt.kind !== "answer") return { again: again ?? { why: attempt.kind } };
  // Alone, the 409 would send the app to a new key for a key that may have charged in another Region (issue 26).
  if (attempt.status === 409 && problemKind(attempt) === "key-voided")
    return { again: { why: "key-voided", status: 409, problem: attempt.problem }, askResolve: true };
  const final = finalAnswer(attempt, at);
  if (final) return { final };
  if (attempt.status === 202) {
    const body = check(PaymentProcessing, attempt.body);
    if (!body.ok) return unexpected(attempt);
    return {
      again: {
        why: "processing",
        status: 202,
        poll: true,
        floorMs: retryAfterMs(attempt.headers.get("retry-after"), rt.now()),
      },
      processing: body.value,
    };
  }
  if (attempt.status >= 400)
    return { final: refusedAnswer(attempt, attempt.status === 404 ? "not-found" : "rejected", at) };
  return unexpected(attempt);
}
