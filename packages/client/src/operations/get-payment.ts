import { check, PaymentId, PaymentView } from "@eo/contract";
import type { Runtime } from "../client-options";
import { type Attempt, sendAttempt } from "../http/send-attempt";
import type { GetPaymentOutcome } from "../results";
import { retryUntilHorizon, type Verdict } from "../retry/retry-loop";
import { transient } from "../retry/transient";
import { lastSeen, refusedAnswer, refusedLocally, unexpected } from "./refusal";

function getVerdict(rt: Runtime, attempt: Attempt, paymentId: string, n: number): Verdict<GetPaymentOutcome> {
  const again = transient(rt, attempt);
  if (again || attempt.kind !== "answer") return { again: again ?? { why: attempt.kind } };
  const at = { payment_id: paymentId, attempts: n };
  if (attempt.status >= 400)
    return { final: refusedAnswer(attempt, attempt.status === 404 ? "not-found" : "rejected", at) };
  const body = check(PaymentView, attempt.body);
  if (attempt.status !== 200 || !body.ok) return unexpected(attempt);
  return { final: { kind: "found", ...at, body: body.value } };
}

/** Reads a payment for its owner; 404 (also for anyone else's payment) is `refused` with reason `not-found`. */
export async function getPayment(rt: Runtime, paymentId: string): Promise<GetPaymentOutcome> {
  const id = check(PaymentId, paymentId);
  if (!id.ok) return refusedLocally(rt, "get-payment", "invalid-request", `client bug: ${id.detail}`, {});
  const path = `/payments/${id.value}`;
  return retryUntilHorizon(
    rt,
    "get-payment",
    async (n) =>
      getVerdict(
        rt,
        await sendAttempt(rt, { op: "get-payment", attempt: n, method: "GET", path }),
        id.value,
        n,
      ),
    (last, attempts) => ({ kind: "unavailable", payment_id: id.value, attempts, last: lastSeen(last) }),
  );
}
