import type { PaymentRow } from "../ledger/ledger-items";
import type { AttemptWindow } from "../psp/psp-port";
import type { PaymentDeps } from "./payment-deps";

/** How many send times a row keeps: the first (the durable guard's) and the latest ones. */
export const PSP_SENDS_KEPT = 6;

/**
 * The sends with one more at `atMs`. The first is always kept (the durable guard's, the send most likely to have
 * created the intent); past the limit the second is dropped, and a full list says so: its first gap is then
 * listed whole (sendWindowsOf).
 */
export function withSend(sends: number[] | undefined, atMs: number): number[] {
  const all = [...(sends ?? []), atMs];
  return all.length <= PSP_SENDS_KEPT ? all : [all[0] as number, ...all.slice(2)];
}

/**
 * Records a send of the row's charge key before it is sent, by a conditional update that never brings back a row
 * that moved, and keeps `row` (the base of the move that settles it) in step. One retry when another process
 * recorded a send meanwhile; false when the row moved or the retry lost too: then nothing is sent.
 */
export async function recordSend(deps: PaymentDeps, row: PaymentRow, atMs: number): Promise<boolean> {
  let base: PaymentRow | undefined = row;
  for (let attempt = 0; attempt < 2 && base?.state === row.state; attempt++) {
    const after = withSend(base.psp_sends, atMs);
    const { payment_id: paymentId, state } = row;
    if (await deps.ledger.recordPspSends({ paymentId, state, before: base.psp_sends, after })) {
      row.psp_sends = after;
      return true;
    }
    base = await deps.ledger.getPayment(row.payment_id);
  }
  return false;
}

/**
 * When the row's charge can have been sent, from its recorded sends: each send goes within a deadline of its
 * record (replayCharge holds it to that), so each is a window of a deadline; a full list's first gap may hide
 * dropped sends and is one window. Without any recorded send (a row from before issue 39), the bounded fallback.
 */
export function sendWindowsOf(deps: PaymentDeps, row: PaymentRow): AttemptWindow[] {
  const sends = row.psp_sends ?? [];
  if (sends.length === 0) return [attemptWindowOf(deps, row)];
  const span = deps.config.deadlineMs;
  const windows = sends.map((s) => ({ fromMs: s, toMs: s + span }));
  const [first, second] = sends;
  if (sends.length >= PSP_SENDS_KEPT && first !== undefined && second !== undefined)
    windows[0] = { fromMs: first, toMs: second + span };
  return merged(windows);
}

/**
 * When a payment's charge can have been sent, without a record of its sends (the fallback): the row is written
 * before the first send (the durable guard), its derived key is sent only until the PSP's key window has passed
 * (pastPspKeyWindow), and each send lasts at most a deadline. The deadline before creation is slack for clock
 * offsets; the adapter adds its own margin for the PSP's clock, and a list that cannot finish in one pass goes on
 * in the next from its cursor.
 */
export function attemptWindowOf(deps: PaymentDeps, row: PaymentRow): AttemptWindow {
  const { deadlineMs, pspKeyWindowS } = deps.config;
  return { fromMs: row.created_at - deadlineMs, toMs: row.created_at + pspKeyWindowS * 1000 + deadlineMs };
}

// Overlapping windows as one, oldest first: a page is never listed twice in one lookup.
function merged(windows: AttemptWindow[]): AttemptWindow[] {
  const out: AttemptWindow[] = [];
  for (const w of [...windows].sort((a, b) => a.fromMs - b.fromMs)) {
    const last = out[out.length - 1];
    if (last && w.fromMs <= last.toMs) last.toMs = Math.max(last.toMs, w.toMs);
    else out.push({ ...w });
  }
  return out;
}
