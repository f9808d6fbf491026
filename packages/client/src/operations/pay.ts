import { check, PaymentRequest } from "@eo/contract";
import type { Runtime } from "../client-options";
import { sendAttempt } from "../http/send-attempt";
import type { JournalEntry, JournalState } from "../journal/key-journal";
import type { PayResult } from "../results";
import { retryUntilHorizon } from "../retry/retry-loop";
import { payVerdict } from "./classify-payment-answer";
import { journalTrouble, keyFor, newKeyFor, recordOutcome } from "./journal-steps";
import { lastSeen, refusedLocally } from "./refusal";
import { resolveVoidedKey } from "./resolve-voided-key";

const JOURNAL_STATE: Record<PayResult["kind"], JournalState | undefined> = {
  succeeded: "succeeded",
  declined: "declined",
  processing: "processing",
  voided: "voided",
  refused: undefined,
};

function orderIdOf(order: unknown): string | undefined {
  const id = (order as { order_id?: unknown } | null)?.order_id;
  return typeof id === "string" ? id : undefined;
}

/** Sends the order with the entry's key until a final answer or the horizon; every retry carries the same key. */
async function send(rt: Runtime, order: PaymentRequest, first: JournalEntry): Promise<PayResult> {
  let entry = first;
  let paymentId: string | undefined;
  return retryUntilHorizon(
    rt,
    "pay",
    async (n) => {
      if (n > 1 && rt.newKeyPerRetry) entry = await newKeyFor(rt, order.order_id, entry.key, true);
      const attempt = await sendAttempt(rt, {
        op: "pay",
        attempt: n,
        method: "POST",
        path: "/payments",
        key: entry.key,
        body: order,
      });
      const at = { order_id: order.order_id, key: entry.key, attempts: n };
      const paid = payVerdict(rt, attempt, at);
      // Only resolve may end a key: a 409 key-voided is asked of it with the same key before anything is final.
      const verdict = paid.askResolve && "again" in paid ? await resolveVoidedKey(rt, at, paid.again) : paid;
      paymentId = verdict.processing?.payment_id ?? paymentId;
      return verdict;
    },
    (last, attempts) => ({
      kind: "processing",
      next: "resolve",
      order_id: order.order_id,
      key: entry.key,
      attempts,
      payment_id: paymentId,
      body: paymentId ? { payment_id: paymentId, state: "PROCESSING" } : undefined,
      last: lastSeen(last),
    }),
  );
}

/**
 * Pays an order once: checks it against the contract, takes its journaled key (or makes and journals
 * a new one before the first send), sends it until a final answer or the horizon, and journals the outcome.
 */
export async function pay(rt: Runtime, order: PaymentRequest): Promise<PayResult> {
  const checked = check(PaymentRequest, order);
  if (!checked.ok) {
    const detail = `client bug: the order does not match the contract, so nothing was sent: ${checked.detail}`;
    return refusedLocally(rt, "pay", "invalid-request", detail, { order_id: orderIdOf(order) });
  }
  const valid = checked.value;
  return rt.locks.run(valid.order_id, async () => {
    let entry: JournalEntry;
    try {
      entry = await keyFor(rt, valid.order_id);
    } catch (err) {
      return refusedLocally(rt, "pay", "journal-unavailable", journalTrouble(err), {
        order_id: valid.order_id,
      });
    }
    const result = await send(rt, valid, entry);
    const key = result.key ?? entry.key;
    const paymentId = "payment_id" in result ? result.payment_id : undefined;
    await recordOutcome(rt, { ...entry, key }, JOURNAL_STATE[result.kind], paymentId);
    return result;
  });
}
