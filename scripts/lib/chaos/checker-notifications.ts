import { type HistoryEntry, regionFailures, type Violation, violation as v } from "./history";
import { failedRefundsOf, type Observation } from "./observe";
import type { ClientView } from "./run-schedule";

// The documented bounds (docs/async-path.md, docs/guarantees.md) on what reaches the phone and the mailbox,
// judged from the screens and the emails.

/** The states of a payment that was paid: its receipt and its "paid" push are owed. */
const PAID = ["SUCCEEDED", "REFUNDED", "REFUND_FAILED"];

/** One notification shown per paid payment, none for others, alerts within the documented bound. */
export function notifiedOnce(view: ClientView, history: HistoryEntry[], obs: Observation): Violation[] {
  const out: Violation[] = [];
  view.names.callers.forEach((caller, i) => {
    const screen = obs.screens[i] ?? { shown: [], alerts: 0 };
    const mine = [...obs.payments].filter(([, p]) => p.owner === i && p.row);
    const paid = mine.filter(([, p]) => PAID.includes(String(p.row?.state)));
    for (const [id, p] of paid) {
      const n = screen.shown.filter((s) => s.replace_id === id).length;
      // docs/async-path.md: a second payment to the same merchant for the same amount within 60 s is a logical
      // duplicate, whose alert is suppressed; it may be unshown when its twin is shown.
      const twinShown = paid.some(
        ([other, q]) =>
          other !== id &&
          q.row?.merchant_id === p.row?.merchant_id &&
          q.row?.amount === p.row?.amount &&
          screen.shown.some((s) => s.replace_id === other),
      );
      if (n > 1 || (n === 0 && !twinShown))
        out.push(v("notified-once", `${id}: shown ${n} times on ${caller}'s phone`));
    }
    const paidIds = new Set(paid.map(([id]) => id));
    for (const s of screen.shown)
      if (!paidIds.has(s.replace_id))
        out.push(v("notified-once", `${caller}'s phone shows ${s.replace_id}, which was never paid`));
    // docs/async-path.md: one alert per event, and one more only where a worker died after a send and before its
    // SENT mark, or where a Region failed before that mark replicated (the other Region sends it once more).
    // Each refund the PSP failed later adds at most two events: its REFUNDED (when it succeeded first) and its failure.
    const events = paid.reduce(
      (n, [id, p]) => n + 1 + (p.row?.state === "REFUNDED" ? 1 : 0) + 2 * failedRefundsOf(obs, id),
      0,
    );
    const extra =
      history.filter((e) => e.type === "fault" && /worker(\.|_crash_)after_send/.test(e.op)).length +
      events * regionFailures(history);
    if (screen.alerts > events + extra)
      out.push(
        v(
          "alerts-bounded",
          `${caller}: ${screen.alerts} alerts for ${events} events (${extra} allowed extra)`,
        ),
      );
  });
  return out;
}

/**
 * Receipts: one per paid payment, one refund email per refund; the send record stops a second. A Region that
 * failed before its SENT mark replicated allows one more from the other Region (docs/regions-and-failover.md,
 * forced failover).
 */
export function emailsBounded(view: ClientView, history: HistoryEntry[], obs: Observation): Violation[] {
  const out: Violation[] = [];
  const most = 1 + regionFailures(history);
  view.names.callers.forEach((caller, i) => {
    const mails = obs.emails[i] ?? [];
    for (const [id, p] of obs.payments) {
      if (p.owner !== i || !p.row) continue;
      const receipts = mails.filter((m) => m.subject.includes(`receipt for payment ${id}`)).length;
      const aboutRefund = mails.filter((m) => m.subject.includes(`refund for payment ${id}`));
      const failures = aboutRefund.filter((m) => m.subject.endsWith("failed")).length;
      const refunds = aboutRefund.length - failures;
      const paid = PAID.includes(String(p.row.state));
      if (paid ? receipts < 1 || receipts > most : receipts > 0)
        out.push(v("emails-bounded", `${id}: ${receipts} receipts to ${caller} (${String(p.row.state)})`));
      // A refund the PSP failed later: one email for its failure, beside the refund email it may have had first
      // (none for a refund that failed before the ledger recorded it: its cancel heard the refusal).
      const failed = failedRefundsOf(obs, id);
      const refunded = p.row.state === "REFUNDED" ? 1 : 0;
      if (refunds < refunded || refunds > (refunded + failed) * most)
        out.push(
          v("emails-bounded", `${id}: ${refunds} refund emails to ${caller} (${String(p.row.state)})`),
        );
      const toldFailed = p.row.state === "REFUND_FAILED" ? 1 : 0;
      if (failures < toldFailed || failures > failed * most)
        out.push(
          v(
            "emails-bounded",
            `${id}: ${failures} refund-failed emails to ${caller} for ${failed} failed refunds`,
          ),
        );
    }
  });
  return out;
}
