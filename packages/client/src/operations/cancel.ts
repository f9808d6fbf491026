import { CancelResult, check, PaymentId } from "@eo/contract";
import type { Runtime } from "../client-options";
import { type Attempt, sendAttempt } from "../http/send-attempt";
import type { CancelOutcome } from "../results";
import { retryAfterMs } from "../retry/backoff";
import { retryUntilHorizon, type Verdict } from "../retry/retry-loop";
import { problemKind, transient } from "../retry/transient";
import { lastSeen, refusedAnswer, refusedLocally, unexpected } from "./refusal";

function cancelVerdict(rt: Runtime, attempt: Attempt, paymentId: string, n: number): Verdict<CancelOutcome> {
  const again = transient(rt, attempt);
  if (again || attempt.kind !== "answer") return { again: again ?? { why: attempt.kind } };
  const at = { payment_id: paymentId, attempts: n };
  if (attempt.status === 409 && problemKind(attempt) === "refund-refused") {
    return { final: refusedAnswer(attempt, "refund-refused", at) };
  }
  if (attempt.status >= 400)
    return { final: refusedAnswer(attempt, attempt.status === 404 ? "not-found" : "rejected", at) };
  const body = check(CancelResult, attempt.body);
  if (!body.ok) return unexpected(attempt);
  if (attempt.status === 200 && body.value.state === "REFUNDED")
    return { final: { kind: "refunded", ...at, body: body.value } };
  if (attempt.status === 202) {
    return {
      again: {
        why: "refund pending",
        status: 202,
        poll: true,
        floorMs: retryAfterMs(attempt.headers.get("retry-after"), rt.now()),
      },
    };
  }
  return unexpected(attempt);
}

/**
 * Refunds a payment with its server-derived refund key (so repeats are the same refund): polls 202
 * REFUND_PENDING until 200 REFUNDED or the horizon; a PSP refusal is `refused` with its reason.
 */
export async function cancel(rt: Runtime, paymentId: string): Promise<CancelOutcome> {
  const id = check(PaymentId, paymentId);
  if (!id.ok) return refusedLocally(rt, "cancel", "invalid-request", `client bug: ${id.detail}`, {});
  const path = `/payments/${id.value}/cancel`;
  return retryUntilHorizon(
    rt,
    "cancel",
    async (n) =>
      cancelVerdict(
        rt,
        await sendAttempt(rt, { op: "cancel", attempt: n, method: "POST", path }),
        id.value,
        n,
      ),
    (last, attempts) => ({
      kind: "refund-pending",
      payment_id: id.value,
      attempts,
      body: last.status === 202 ? { payment_id: id.value, state: "REFUND_PENDING" } : undefined,
      last: lastSeen(last),
    }),
  );
}
