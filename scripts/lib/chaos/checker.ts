import { emailsBounded, notifiedOnce } from "./checker-notifications";
import { type HistoryEntry, isRegionFailure, type Violation, violation as v } from "./history";
import { failedRefundsOf, type Observation } from "./observe";
import type { ClientView } from "./run-schedule";

/**
 * The independent checker: it knows the contract and the documented bounds (docs/guarantees.md), never the
 * project's code, and judges a quiet stack from what the clients heard and what the stores hold. Each check names
 * the guarantee it judges.
 */
export function checkRun(view: ClientView, history: HistoryEntry[], obs: Observation): Violation[] {
  const all = [
    ...oneChargePerOrder(obs),
    ...noLostPayment(obs),
    ...answersAgree(history, obs),
    ...oneFirstAnswer(history),
    ...creditedOnce(view, obs),
    ...regionsAgree(view, obs),
    ...journalBalances(obs),
    ...notifiedOnce(view, history, obs),
    ...emailsBounded(view, history, obs),
    ...nothingLeft(obs),
  ];
  const seen = new Set<string>();
  return all.filter(
    (x) => !seen.has(`${x.check}\u0000${x.reason}`) && seen.add(`${x.check}\u0000${x.reason}`) !== undefined,
  );
}

/**
 * At most one PSP charge per (caller, key), and per order: a new key after VOID may never add a second. The order
 * of a charge is read from its ledger row (owner and order id), since a client may never have heard its id.
 */
function oneChargePerOrder(obs: Observation): Violation[] {
  const out: Violation[] = [];
  const perRef = new Map<string, number>();
  const perOrder = new Map<string, string[]>();
  for (const c of obs.charges) {
    perRef.set(c.reference, (perRef.get(c.reference) ?? 0) + 1);
    const p = obs.payments.get(c.reference);
    if (p?.row) {
      const order = `caller ${p.owner}, order ${String(p.row.order_id)}`;
      perOrder.set(order, [...(perOrder.get(order) ?? []), c.reference]);
    }
  }
  for (const [ref, n] of perRef) if (n > 1) out.push(v("one-charge-per-key", `${ref} charged ${n} times`));
  for (const [order, refs] of perOrder)
    if (refs.length > 1)
      out.push(v("one-charge-per-order", `${order} charged ${refs.length} times: ${refs.join(", ")}`));
  return out;
}

/** Every PSP charge has its ledger row, owned by a caller of the run, naming it, in the state it implies. */
function noLostPayment(obs: Observation): Violation[] {
  return obs.charges.flatMap((c) => {
    const p = obs.payments.get(c.reference);
    if (!p?.row)
      return [v("no-lost-payment", `charge ${c.id} (${c.reference}) has no ledger row its owner can read`)];
    // A refund the PSP failed later leaves the charge unrefunded and the payment REFUND_FAILED (until a new attempt).
    const want = c.refunded ? "REFUNDED" : (c.refunds_failed ?? 0) > 0 ? "REFUND_FAILED" : "SUCCEEDED";
    if (p.row.state !== want || p.row.psp_charge !== c.id)
      return [
        v(
          "no-lost-payment",
          `charge ${c.id}: the ledger says ${String(p.row.state)} / ${String(p.row.psp_charge)}, the PSP ${want}`,
        ),
      ];
    return [];
  });
}

// The states a client hears, ranked: the charge's answers (pay, resolve) and the refund's (cancel) each move on.
const CHARGE_RANK: Record<string, number> = { PROCESSING: 0, SUCCEEDED: 1, FAILED: 1 };
const REFUND_RANK: Record<string, number> = { REFUND_PENDING: 0, REFUNDED: 1 };

/** The final states that keep a refund's promise (a 202 REFUND_PENDING): sent, refused and told, or still on its way. */
const REFUND_PROMISE_KEPT = ["REFUND_PENDING", "REFUND_UNKNOWN", "REFUNDED", "REFUND_FAILED"];

/** No answer contradicts the final state, and no state a client heard moves backwards. */
function answersAgree(history: HistoryEntry[], obs: Observation): Violation[] {
  const out: Violation[] = [];
  const heard = new Map<string, HistoryEntry[]>();
  for (const e of history)
    if (e.payment_id && e.state && (e.type === "ok" || e.type === "info"))
      heard.set(e.payment_id, [...(heard.get(e.payment_id) ?? []), e]);
  for (const [id, entries] of heard) {
    const final = String(obs.payments.get(id)?.row?.state ?? "absent");
    const charged = obs.charges.some((c) => c.reference === id);
    const failedLater = failedRefundsOf(obs, id);
    for (const e of entries) out.push(...contradiction(id, e, final, charged, failedLater > 0));
    out.push(
      ...backwards(
        id,
        entries.filter((e) => e.op !== "cancel"),
        CHARGE_RANK,
        history,
      ),
    );
    out.push(
      ...backwards(
        id,
        entries.filter((e) => e.op === "cancel"),
        REFUND_RANK,
        history,
        failedLater,
      ),
    );
  }
  // A key resolved VOID is never charged afterwards under the id that key was heard with, unless the Region that
  // wrote the void failed before it could replicate: a forced failover loses that last second
  // (docs/regions-and-failover.md, RPO).
  for (const e of history) {
    if (e.op !== "resolve" || e.state !== "VOID" || voidMayBeLost(e, history)) continue;
    const charged = obs.charges.filter((c) =>
      history.some((h) => h.key === e.key && h.payment_id === c.reference),
    );
    if (charged.length > 0)
      out.push(v("answers-agree", `key ${e.key} was resolved VOID, yet ${charged[0]?.id} charged it`));
  }
  return out;
}

/** The stack's replication lag (1 s) and a stream read: what a Region that fails may not have shipped yet. */
const UNSHIPPED_WITHIN_MS = 2_000;

/**
 * Whether a VOID may have been lost with its Region: the Region failed within the lag after it, or replication was
 * stalled from within that lag until the failure, so the tombstone could not ship (MREC's RPO is the lag in effect,
 * which a stall lengthens; the failover prints the recent ReplicationLatency for it). Found as a violation by the
 * real-world nemesis when this allowed only the usual lag (issue 42, seed 880400).
 */
const voidMayBeLost = (e: HistoryEntry, history: HistoryEntry[]) =>
  history.some(
    (f) =>
      isRegionFailure(f) &&
      f.at_ms >= e.at_ms &&
      (f.at_ms - e.at_ms <= UNSHIPPED_WITHIN_MS ||
        stalledThrough(history, e.at_ms + UNSHIPPED_WITHIN_MS, f.at_ms)),
  );

/** Whether replication was paused by a stall that began by `fromMs` and was not resumed until `toMs`. */
const stalledThrough = (history: HistoryEntry[], fromMs: number, toMs: number) =>
  history.some(
    (s) =>
      s.op === "replication_stall" &&
      s.at_ms <= Math.min(fromMs, toMs) &&
      !history.some((r) => r.op === "replication_resume" && r.at_ms >= s.at_ms && r.at_ms <= toMs),
  );

function contradiction(
  id: string,
  e: HistoryEntry,
  final: string,
  charged: boolean,
  refundFailedLater: boolean,
): Violation[] {
  const s = e.state as string;
  if (s === "SUCCEEDED" && !["SUCCEEDED", "REFUNDED", "REFUND_FAILED"].includes(final))
    return [
      v("answers-agree", `${id}: a client heard SUCCEEDED (${e.op} ${e.status}), the ledger ends ${final}`),
    ];
  if (s === "FAILED" && (final !== "FAILED" || charged))
    return [
      v(
        "answers-agree",
        `${id}: a client heard FAILED, the ledger ends ${final}${charged ? " and the PSP charged it" : ""}`,
      ),
    ];
  // The contract: a refund the PSP fails after confirming it moves the payment to REFUND_FAILED, and the buyer is told.
  if (s === "REFUNDED" && final !== "REFUNDED" && !(refundFailedLater && final === "REFUND_FAILED"))
    return [v("answers-agree", `${id}: a client heard REFUNDED, the ledger ends ${final}`)];
  // A 202 REFUND_PENDING promised the buyer a refund: it ends sent (REFUNDED), refused and told (REFUND_FAILED), or
  // still on its way; never back on the charge's ladder, where nothing will ever send it (issue 40, item 3).
  if (s === "REFUND_PENDING" && !REFUND_PROMISE_KEPT.includes(final))
    return [
      v(
        "answers-agree",
        `${id}: a client heard REFUND_PENDING (a refund promised), the ledger ends ${final}`,
      ),
    ];
  return [];
}

/**
 * A state heard after a later one, or one final answer after another. A forced failover may answer from before
 * the failed Region's last second (docs/regions-and-failover.md): across a Region failure an earlier state may be
 * heard once more, and the final state still has to agree (answers-agree).
 */
function backwards(
  id: string,
  entries: HistoryEntry[],
  rank: Record<string, number>,
  history: HistoryEntry[],
  refundsFailedLater = 0,
): Violation[] {
  let top = -1;
  let topState = "";
  let spent = 0;
  for (const e of entries) {
    const r = rank[e.state as string];
    if (r === undefined) continue;
    if (r < top || (r === top && e.state !== topState)) {
      // One step back per Region failure before it, spent whenever it comes: the new Region may be behind both
      // the old Region's answer and what resolve learned from the PSP for a key it had no trace of.
      // A refund the PSP failed later starts the refund's ladder again with the next attempt.
      const failures =
        history.filter((f) => isRegionFailure(f) && f.at_ms <= e.at_ms).length + refundsFailedLater;
      if (spent >= failures)
        return [v("no-state-backwards", `${id}: heard ${topState}, then ${e.state} (${e.op} ${e.status})`)];
      spent += 1;
    }
    top = r;
    topState = e.state as string;
  }
  return [];
}

/**
 * A final answer without Idempotent-Replayed says "I did it, and I am the first to answer": once a key has had a
 * final answer, every later one is a repeat and must say so (a paused owner that woke after a takeover, 3c).
 */
function oneFirstAnswer(history: HistoryEntry[]): Violation[] {
  // The Region failures so far when each key was first answered: a forced failover may lose the failed Region's
  // record of an answer within the lag (docs/regions-and-failover.md, what a failover can repeat), so the other
  // Region may answer first again.
  const answered = new Map<string, number>();
  let failures = 0;
  const out: Violation[] = [];
  for (const e of history) {
    if (isRegionFailure(e)) failures += 1;
    if (e.op !== "pay" || e.type !== "ok" || !e.key) continue;
    if (answered.get(e.key) === failures && !e.replayed)
      out.push(
        v(
          "one-first-answer",
          `key ${e.key}: ${e.process} answered ${e.status} as the first, after another final answer`,
        ),
      );
    answered.set(e.key, failures);
  }
  return out;
}

/** Once replication has shipped everything, every Region reads each merchant as the active one does. */
function regionsAgree(view: ClientView, obs: Observation): Violation[] {
  const out: Violation[] = [];
  for (const [region, merchants] of Object.entries(obs.merchantsByRegion))
    view.names.merchants.forEach((m, i) => {
      const here = merchants[i];
      const active = obs.merchants[i];
      if (here?.balance !== active?.balance || here?.credits !== active?.credits)
        out.push(
          v(
            "regions-agree",
            `${m}: ${region} reads ${here?.credits} credits and balance ${here?.balance}, the active Region ${active?.credits} and ${active?.balance}`,
          ),
        );
    });
  return out;
}

/**
 * Every SUCCEEDED payment is credited once, and a refunded one debited once; each refund the PSP failed later
 * credits the merchant once more (the debit taken back), so a REFUND_FAILED payment counts in the balance.
 */
function creditedOnce(view: ClientView, obs: Observation): Violation[] {
  return view.names.merchants.flatMap((m, i) => {
    const rows = [...obs.payments].flatMap(([id, p]) =>
      p.row && p.row.merchant_id === m ? [{ id, row: p.row }] : [],
    );
    const credited = rows.filter(({ row }) =>
      ["SUCCEEDED", "REFUNDED", "REFUND_FAILED"].includes(String(row.state)),
    );
    // A refund the PSP failed later is taken back (one more credit) only if the ledger had it debited: one that
    // failed before anyone heard it succeed (a lost reply, then a retry that met it failed) was never debited.
    const takeBacksAtMost = credited.reduce((n, { id }) => n + failedRefundsOf(obs, id), 0);
    const balance = credited
      .filter(({ row }) => row.state !== "REFUNDED")
      .reduce((a, { row }) => a + Number(row.amount), 0);
    const got = obs.merchants[i] ?? { balance: 0, credits: 0 };
    const paid = credited.length;
    return got.credits >= paid && got.credits <= paid + takeBacksAtMost && got.balance === balance
      ? []
      : [
          v(
            "credited-once",
            `${m}: ${got.credits} credits and balance ${got.balance}, for ${paid} credited payments (and at most ${takeBacksAtMost} refunds taken back) worth ${balance} now`,
          ),
        ];
  });
}

/** The journal of each payment balances: one entry for a success, and back to zero per account for a refund. */
function journalBalances(obs: Observation): Violation[] {
  const out: Violation[] = [];
  for (const [id, legs] of obs.journal) {
    const state = obs.payments.get(id)?.row?.state;
    const net = new Map<string, number>();
    for (const l of legs)
      net.set(l.account, (net.get(l.account) ?? 0) + (l.side === "debit" ? l.amount : -l.amount));
    const total = [...net.values()].reduce((a, n) => a + n, 0);
    if (total !== 0) out.push(v("journal-balances", `${id}: debits and credits differ by ${total}`));
    if (state === "REFUNDED" && [...net.values()].some((n) => n !== 0))
      out.push(v("journal-balances", `${id}: refunded, but an account does not return to zero`));
    if (state === "FAILED" && legs.length > 0)
      out.push(v("journal-balances", `${id}: declined, yet journaled`));
    if (state === "SUCCEEDED" && legs.length !== 2)
      out.push(v("journal-balances", `${id}: ${legs.length} legs for one success`));
  }
  return out;
}

/** Nothing left unknown, in flight or in a DLQ once the stack is quiet. */
function nothingLeft(obs: Observation): Violation[] {
  const out: Violation[] = [];
  if (obs.backlog > 0)
    out.push(v("nothing-unknown", `${obs.backlog} payments still open in the resolver's index`));
  for (const [id, p] of obs.payments) {
    const state = p.row?.state;
    if (state && !["SUCCEEDED", "FAILED", "REFUNDED", "REFUND_FAILED"].includes(String(state)))
      out.push(v("nothing-unknown", `${id} ends ${String(state)}`));
  }
  for (const [queue, n] of Object.entries(obs.queues))
    if (n > 0) out.push(v("queues-drained", `${n} messages left in ${queue}`));
  if (obs.outboxLeft > 0) out.push(v("queues-drained", `${obs.outboxLeft} outbox items never relayed`));
  return out;
}
