import type { Operation } from "../client-events";
import type { Runtime } from "../client-options";
import type { Attempt } from "../http/send-attempt";
import type { LastSeen, RefusalReason, Refused } from "../results";
import type { Again } from "../retry/transient";

type Answer = Extract<Attempt, { kind: "answer" }>;
type Context = Pick<Refused, "order_id" | "key" | "payment_id" | "attempts">;

/** A request the client would not send (a client bug, or no journal): nothing went out. */
export function refusedLocally(
  rt: Runtime,
  op: Operation,
  reason: RefusalReason,
  detail: string,
  context: Omit<Context, "attempts">,
): Refused {
  rt.emit({ type: "refused-locally", op, detail });
  const client_bug = reason === "invalid-request";
  return { kind: "refused", reason, client_bug, detail, attempts: 0, ...context };
}

/** A 4xx that retrying would not change, with the server's problem (or raw body) kept for the log. */
export function refusedAnswer(
  answer: Answer,
  reason: RefusalReason,
  context: Context,
  detail?: string,
): Refused {
  const base = {
    kind: "refused" as const,
    reason,
    client_bug: reason === "fingerprint-mismatch",
    status: answer.status,
  };
  const said = answer.problem?.detail ?? `the server answered ${answer.status}`;
  return answer.problem
    ? { ...base, ...context, detail: detail ?? said, problem: answer.problem }
    : { ...base, ...context, detail: detail ?? said, raw: answer.body };
}

/** An answer that no rule expected (an unknown 2xx or 3xx): reported as no answer, so the key stays in use. */
export function unexpected(answer: Answer): { again: Again } {
  return {
    again: { why: `unexpected status ${answer.status}`, status: answer.status, problem: answer.problem },
  };
}

/** The last thing seen, without the server's floor. */
export function lastSeen(again: Again): LastSeen {
  return { why: again.why, status: again.status, problem: again.problem };
}
