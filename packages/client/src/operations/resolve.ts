import type { Runtime } from "../client-options";
import { sendAttempt } from "../http/send-attempt";
import type { JournalEntry, JournalState } from "../journal/key-journal";
import type { ResolveOutcome } from "../results";
import { retryUntilHorizon } from "../retry/retry-loop";
import { resolveVerdict } from "./classify-resolve-answer";
import { journalTrouble, recordOutcome } from "./journal-steps";
import { lastSeen, refusedLocally } from "./refusal";

const JOURNAL_STATE: Record<ResolveOutcome["kind"], JournalState | undefined> = {
  succeeded: "succeeded",
  declined: "declined",
  processing: "processing",
  voided: "voided",
  refused: undefined,
};

async function ask(rt: Runtime, entry: JournalEntry): Promise<ResolveOutcome> {
  return retryUntilHorizon(
    rt,
    "resolve",
    async (n) => {
      const attempt = await sendAttempt(rt, {
        op: "resolve",
        attempt: n,
        method: "POST",
        path: "/payments/resolve",
        key: entry.key,
      });
      return resolveVerdict(rt, attempt, { order_id: entry.order_id, key: entry.key, attempts: n });
    },
    (last, attempts) => ({
      kind: "processing",
      next: "resolve",
      order_id: entry.order_id,
      key: entry.key,
      attempts,
      payment_id: entry.payment_id,
      last: lastSeen(last),
    }),
  );
}

/**
 * "Did it go through?" for an order's journaled key (Part 4). VOID marks the entry voided, so the
 * next pay of the order makes a new key; PROCESSING keeps the key; every answer is journaled.
 */
export async function resolve(rt: Runtime, orderId: string): Promise<ResolveOutcome> {
  return rt.locks.run(orderId, async () => {
    let entry: JournalEntry | undefined;
    try {
      entry = await rt.journal.get(orderId);
    } catch (err) {
      return refusedLocally(rt, "resolve", "journal-unavailable", journalTrouble(err), { order_id: orderId });
    }
    if (!entry) {
      const detail = `the journal holds no key for order ${orderId}: nothing was ever sent for it, so pay() makes a new key`;
      return refusedLocally(rt, "resolve", "no-key", detail, { order_id: orderId });
    }
    const outcome = await ask(rt, entry);
    const paymentId = "payment_id" in outcome ? outcome.payment_id : undefined;
    const known =
      outcome.kind === "processing" && outcome.body === undefined ? undefined : JOURNAL_STATE[outcome.kind];
    await recordOutcome(rt, entry, known, paymentId);
    return outcome;
  });
}
