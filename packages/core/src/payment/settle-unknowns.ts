import { scopeOf } from "../ids/derive-ids";
import type { PaymentRow } from "../ledger/ledger-items";
import type { PspReply } from "../psp/psp-port";
import { countSignal } from "../signals/signal-sink";
import { catchUpMarkedRefunds } from "./catch-up-marked-refunds";
import type { PaymentDeps } from "./payment-deps";
import { findRefusal } from "./payment-errors";
import type { PaymentState } from "./payment-state";
import {
  unsafeNoResolverIsolation,
  unsafeNoResolverRecheck,
  unsafeReplayInheritedRow,
  unsafeReplayVoidedKey,
} from "./payment-test-switches";
import { renderPayment } from "./render-payment";
import { replayCharge } from "./replay-charge";
import { replayRefund } from "./replay-refund";
import { settleCharge } from "./settle-charge";
import { settleRefund } from "./settle-refund";

const PSP_TIMEOUT_MS = 5_000;
/** Backoff between lookups that found nothing: 30 s doubling, at most 5 minutes. */
const LOOKUP_BACKOFF_MS = 30_000;
const LOOKUP_BACKOFF_MAX_MS = 300_000;

export interface ResolverReport {
  examined: number;
  settled: Array<{ payment_id: string; from: PaymentState; to: PaymentState }>;
  unresolved: Array<{ payment_id: string; state: PaymentState }>;
  /** Payments where the PSP contradicts a final state; listed on every pass until a person acts. */
  anomalies: Array<{ payment_id: string; state: PaymentState; kind: string; psp_charge: string }>;
  rateLimited: boolean;
  /** How many unsettled payments and refunds the pass found listed (at most 4 × its limit): the unknown backlog. */
  backlog: number;
  /** The age in seconds of the oldest of them (since its charge or refund began); 0 when there is none. */
  oldestAgeS: number;
  /** Set when the pass stopped because the authority no longer named this Region before a PSP call. */
  stoppedPassive?: boolean;
  /**
   * Rows whose settle threw this pass: each went to the back of the index with a growing wait, its failures counted
   * on the row; `poison` once it has failed POISON_AFTER times (the ResolverPoisonRows alarm).
   */
  failed: Array<{
    payment_id: string;
    state: PaymentState;
    failures: number;
    poison: boolean;
    error: string;
  }>;
  /** Rows the PSP refused our credentials for (401/403): left as they are, for the configuration alarm. */
  misconfigured: Array<{ payment_id: string; reason: string }>;
}

/** One step of a resolver pass, for an operator's progress lines. */
export type ResolverProgress = (e: { payment_id: string; from: PaymentState; to: PaymentState }) => void;

/**
 * The payments a resolver pass would examine now: UNKNOWN ones, and PENDING ones whose owner's
 * deadline plus margin has passed (and the same for refunds), from the sparse state index.
 */
export async function listUnsettled(deps: PaymentDeps, limit = 100): Promise<PaymentRow[]> {
  const now = deps.clock.now();
  const stale = now - deps.config.deadlineMs - deps.config.takeoverMarginMs;
  const batches: Array<[PaymentState, number]> = [
    ["UNKNOWN", now + 1],
    ["PENDING", stale],
    ["REFUND_UNKNOWN", now + 1],
    ["REFUND_PENDING", stale],
  ];
  const rows: PaymentRow[] = [];
  for (const [state, before] of batches) rows.push(...(await deps.ledger.listByState(state, before, limit)));
  return rows;
}

/** How a resolver pass runs: how many rows per state, who hears each step, and the Region control's epoch now. */
export interface ResolverPass {
  limit?: number;
  onProgress?: ResolverProgress;
  /** The epoch of the control that lets this Region resolve; rows guarded under an earlier one are looked up. */
  epoch?: number;
  /**
   * Asked before each PSP call: whether the authority, read now, still names this Region under the same epoch.
   * A pass can last longer than the control's cache, and a failover in the middle of it must stop its replays.
   */
  stillActive?: () => Promise<boolean>;
}

/**
 * The resolver (Part 3 and 4): replays the PSP call with the derived key for every payment whose
 * outcome is unknown, and PENDING ones whose owner's deadline plus margin has passed; moves them by
 * compare-and-set and rewrites the key record's stored answer to the final one.
 */
export async function settleUnknowns(deps: PaymentDeps, pass: ResolverPass = {}): Promise<ResolverReport> {
  const { limit = 100 } = pass;
  const anomalies = (await deps.ledger.listAnomalies(limit)).map((r) => ({
    payment_id: r.payment_id,
    state: r.state,
    kind: r.anomaly?.kind ?? "unknown",
    psp_charge: r.anomaly?.psp_charge ?? "",
  }));
  // First the refunds the stream's catch-up could not reach: their rows then list as REFUND_PENDING below.
  await catchUpMarkedRefunds(deps, limit);
  const backlog = await listUnsettled(deps, limit);
  const report: ResolverReport = {
    failed: [],
    misconfigured: [],
    examined: 0,
    settled: [],
    unresolved: [],
    anomalies,
    rateLimited: false,
    backlog: backlog.length,
    oldestAgeS: oldestAgeS(backlog, deps.clock.now()),
  };
  for (const listed of backlog) {
    const step = await isolated(deps, listed, report, () => passStep(deps, listed, pass, report));
    if (step === "passive") return { ...report, stoppedPassive: true };
    // No slot in the PSP budget (live payments come first), or a 429: the next pass goes on from here.
    if (step === "rate-limited") return { ...report, rateLimited: true };
  }
  return report;
}

type Step = "next" | "passive" | "rate-limited";

async function passStep(
  deps: PaymentDeps,
  listed: PaymentRow,
  pass: ResolverPass,
  report: ResolverReport,
): Promise<Step> {
  // The index is read once; another resolver may have settled the row since, or a fact of a further state may
  // have replicated here beside it: the row then catches up, or it would stay listed for ever.
  const row = (await deps.ledger.catchUp(listed.payment_id, deps.clock.now())).row;
  if (row?.state !== listed.state) return "next";
  if (pass.stillActive && !(await pass.stillActive()) && !unsafeNoResolverRecheck()) return "passive";
  report.examined += 1;
  const { after, reply } = await settleOne(deps, row, pass.epoch);
  pass.onProgress?.({ payment_id: row.payment_id, from: row.state, to: after.state });
  if (after.state !== row.state)
    report.settled.push({ payment_id: row.payment_id, from: row.state, to: after.state });
  else report.unresolved.push({ payment_id: row.payment_id, state: row.state });
  if (reply.kind === "misconfigured")
    report.misconfigured.push({ payment_id: row.payment_id, reason: reply.reason });
  return reply.kind === "rate-limited" ? "rate-limited" : "next";
}

/**
 * Runs one row's step so that no row can stop the pass: a step that throws (a bug, a row the code cannot read, a
 * store's error) is caught, the row goes to the back of the index with a growing wait and its failure counted on
 * it, and the pass goes on to the next row. A row that failed POISON_AFTER times is a poison row: counted for the
 * on-call alarm (ResolverPoisonRows) on every pass that fails it again.
 */
async function isolated(
  deps: PaymentDeps,
  listed: PaymentRow,
  report: ResolverReport,
  step: () => Promise<Step>,
): Promise<Step> {
  try {
    return await step();
  } catch (err) {
    // A write fenced because the authority moved in the middle of the step is not this row's fault: the pass
    // stops as passive (the new active Region resolves the row), and no failure is counted on it.
    if (findRefusal(err)?.kind === "region-passive" && !unsafeNoResolverRecheck()) return "passive";
    if (unsafeNoResolverIsolation()) throw err;
    const error = (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, 500);
    const retryAt = deps.clock.now() + failureBackoffMs(listed.resolver_failures ?? 0);
    const failures =
      (await deps.ledger
        .recordSettleFailure(listed.payment_id, listed.state, retryAt, error)
        .catch(() => undefined)) ?? (listed.resolver_failures ?? 0) + 1;
    const poison = failures >= POISON_AFTER;
    report.failed.push({ payment_id: listed.payment_id, state: listed.state, failures, poison, error });
    if (poison) countSignal("ResolverPoisonRows");
    return "next";
  }
}

/** How long the oldest listed row has waited for its outcome, in whole seconds: what the on-call alarm reads. */
function oldestAgeS(rows: PaymentRow[], now: number): number {
  const starts = rows.map((r) =>
    r.state.startsWith("REFUND_") ? (r.refund_started_at ?? r.created_at) : r.created_at,
  );
  return starts.length === 0 ? 0 : Math.max(0, Math.floor((now - Math.min(...starts)) / 1000));
}

async function settleOne(
  deps: PaymentDeps,
  row: PaymentRow,
  epoch: number | undefined,
): Promise<{ after: PaymentRow; reply: PspReply }> {
  const until = deps.clock.now() + PSP_TIMEOUT_MS;
  const refund = row.state === "REFUND_UNKNOWN" || row.state === "REFUND_PENDING";
  const reply = refund
    ? await replayRefund(deps, row, until, "resolver")
    : await replayCharge(deps, row, until, {
        origin: "resolver",
        lookupOnly: await lookUpOnly(deps, row, epoch),
      });
  const settled = refund
    ? await settleRefund(deps, row, reply)
    : await settleCharge(deps, row.payment_id, reply, row);
  // Nothing settled: move it to the back of the sweep index so that the rows behind it get their turn; a
  // lookup that found nothing waits longer each time, since an index that lags needs time, not traffic.
  if (settled.state === row.state || (settled.state === "UNKNOWN" && row.state === "PENDING")) {
    const now = deps.clock.now();
    // A refund the PSP holds pending waits as long (Stripe: until the balance covers it, which can take days).
    const waits = reply.kind === "not-found" || reply.kind === "refund-pending";
    const retryAt = waits ? now + backoffMs(row.lookup_attempts ?? 0) : now;
    await deps.ledger.touchSweep(row.payment_id, settled.state, now, retryAt);
  }
  const answer = renderPayment(settled);
  if (!refund && answer.kind === "final")
    await deps.claims.table.rewriteAnswer(scopeOf(row.caller, row.client_key), answer);
  return { after: settled, reply };
}

// Two ways a key may have been voided where this Region cannot see it, and the app told to pay with a new key;
// replaying the row's charge would then charge the order a second time (both found by the fault checker's
// two-Region schedules). Only a lookup is allowed; a row the PSP never charged ends FAILED after the settle time.
async function lookUpOnly(deps: PaymentDeps, row: PaymentRow, epoch: number | undefined): Promise<boolean> {
  // The epoch needs no read; the locator does, so it is read only for a row of today's epoch.
  return inheritedAcrossFailover(row, epoch) || (await keyVoided(deps, row));
}

// The row's key's locator says VOID: the row arrived from a Region that failed within the lag, after this Region
// voided the key for a resolve that found no trace of it (last writer wins per item: the row and tombstone stand).
async function keyVoided(deps: PaymentDeps, row: PaymentRow): Promise<boolean> {
  if (unsafeReplayVoidedKey()) return false;
  const locator = await deps.ledger.getLocator(row.caller, row.client_key);
  return locator !== undefined && (locator.state === "VOID" || locator.payment_id !== row.payment_id);
}

/**
 * Whether a row was guarded under an earlier Region epoch than `epoch`, so that the resolver only looks its charge up.
 */
// Another Region was active since, and may have voided the key in a last second that never replicated here (it
// failed, and a forced failover came back to this Region). No tombstone can say so, so a row that crossed a
// failover is never charged anew by the resolver; an app that still holds its key gets the charge by retrying it.
export function inheritedAcrossFailover(row: PaymentRow, epoch: number | undefined): boolean {
  if (epoch === undefined || unsafeReplayInheritedRow()) return false;
  return (row.epoch ?? 1) < epoch;
}

const backoffMs = (attempts: number): number =>
  Math.min(LOOKUP_BACKOFF_MS * 2 ** attempts, LOOKUP_BACKOFF_MAX_MS);

/** A row whose settle failed this many times is a poison row: it pages (ResolverPoisonRows). */
export const POISON_AFTER = 5;
/** The wait after a failed settle: 30 s doubling with each failure, at most an hour (a poison row, once an hour). */
const failureBackoffMs = (failures: number): number => Math.min(30_000 * 2 ** failures, 3_600_000);
