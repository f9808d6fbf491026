import type { Runtime } from "../client-options";
import type { JournalEntry, JournalState } from "../journal/key-journal";

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The order's key: the journaled one unless it can never charge (voided by resolve, or definitely declined,
 * so that the buyer may try another card), else a new UUIDv7 that is written to the journal before this
 * returns, so no request carries a key the journal does not hold (Part 2).
 */
export async function keyFor(rt: Runtime, orderId: string): Promise<JournalEntry> {
  const entry = await rt.journal.get(orderId);
  if (entry && entry.state !== "voided" && entry.state !== "declined") {
    rt.emit({ type: "key-reused", order_id: orderId, key: entry.key, state: entry.state });
    return entry;
  }
  return newKeyFor(rt, orderId, entry?.key);
}

/** Makes and journals a new key for the order. */
export async function newKeyFor(
  rt: Runtime,
  orderId: string,
  replaces?: string,
  unsafe?: true,
): Promise<JournalEntry> {
  const now = rt.now();
  const made: JournalEntry = {
    order_id: orderId,
    key: rt.newKey(),
    state: "pending",
    created_at: now,
    updated_at: now,
  };
  await rt.journal.put(made);
  rt.emit({ type: "key-made", order_id: orderId, key: made.key, replaces, unsafe });
  return made;
}

/**
 * Records what the server said about the key. A failure here is logged, not raised: the key itself
 * was journaled before the first send, and the next call asks the server again.
 */
export async function recordOutcome(
  rt: Runtime,
  entry: JournalEntry,
  state: JournalState | undefined,
  paymentId?: string,
): Promise<void> {
  if (state === undefined) return;
  const next: JournalEntry = { ...entry, state, updated_at: rt.now() };
  if (paymentId !== undefined) next.payment_id = paymentId;
  try {
    await rt.journal.put(next);
    rt.emit({ type: "journal-written", order_id: entry.order_id, key: entry.key, state });
  } catch (err) {
    rt.emit({ type: "journal-failed", order_id: entry.order_id, key: entry.key, message: messageOf(err) });
  }
}

/** A journal that cannot be read or written before the first send: the call is refused and nothing goes out. */
export function journalTrouble(err: unknown): string {
  return `the key journal failed before the first send, so nothing was sent: ${messageOf(err)}`;
}
