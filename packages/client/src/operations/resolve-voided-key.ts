import type { PaymentProcessing } from "@eo/contract";
import type { Runtime } from "../client-options";
import { sendAttempt } from "../http/send-attempt";
import type { PayResult, ResolveOutcome } from "../results";
import type { Verdict } from "../retry/retry-loop";
import type { Again } from "../retry/transient";
import type { PayAttempt } from "./classify-payment-answer";
import { resolveVerdict } from "./classify-resolve-answer";

// A 409 alone is no proof that the key never charged: after two failovers the key may have been voided in one
// Region and charged in the other (issue 26). Only resolve's VOID sends the app to a new key; a charge or a
// decline is the original key's final answer, and PROCESSING keeps the key and sends it again.
/** Asks resolve about a key that POST /payments answered 409 key-voided, and answers pay() from what it says. */
export async function resolveVoidedKey(
  rt: Runtime,
  at: PayAttempt,
  voided: Again,
): Promise<Verdict<PayResult> & { processing?: PaymentProcessing }> {
  const attempt = await sendAttempt(rt, {
    op: "resolve",
    attempt: at.attempts,
    method: "POST",
    path: "/payments/resolve",
    key: at.key,
  });
  const verdict = resolveVerdict(rt, attempt, at);
  if ("again" in verdict)
    return { again: { ...verdict.again, why: `key-voided, resolve: ${verdict.again.why}` } };
  return asPayVerdict(verdict.final, at, voided);
}

function asPayVerdict(
  outcome: ResolveOutcome,
  at: PayAttempt,
  voided: Again,
): Verdict<PayResult> & { processing?: PaymentProcessing } {
  if (outcome.kind === "refused") return { final: outcome };
  if (outcome.kind === "voided") {
    const problem = voided.problem;
    return { final: { kind: "voided", next: "pay", ...at, status: 409, problem, resolved: outcome.body } };
  }
  const { payment_id } = outcome;
  // PROCESSING (or a final state that names no payment, which the contract never sends): keep the key, send it again.
  if (outcome.kind === "processing" || payment_id === undefined) {
    const again = { ...voided, why: `key-voided, resolve: ${outcome.body?.state ?? outcome.kind}` };
    return payment_id ? { again, processing: { payment_id, state: "PROCESSING" } } : { again };
  }
  const resolved = outcome.body;
  if (outcome.kind === "succeeded")
    return { final: { kind: "succeeded", ...at, payment_id, replayed: true, resolved } };
  const body = { payment_id, state: "FAILED" as const };
  return { final: { kind: "declined", ...at, payment_id, body, resolved } };
}
