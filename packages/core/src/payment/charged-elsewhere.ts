import { budgetGate, countPspCall } from "../psp-budget/within-budget";
import { type EpochNow, notFoundFinalAt, retryAfterSUntil } from "./not-found-final";
import type { PaymentDeps } from "./payment-deps";
import { unsafeVoidWithoutPspLookup } from "./payment-test-switches";
import { maxWaitOf } from "./replay-charge";

/** What the PSP holds for our reference: a charge, a decline, or no answer yet (PROCESSING). */
export type ChargeFound =
  | { state: "SUCCEEDED"; psp_charge: string }
  | { state: "FAILED"; decline_code: string; psp_charge?: string }
  /** `retryAfterS`: when to ask again about a "not found" that is not final yet (a lookup that may lag). */
  | { state: "PROCESSING"; retryAfterS?: number };

/**
 * How an operation learns the Region control's epoch now, and when it began: read only when a void or a "not found"
 * is met, the places it matters. A caller reads the authority at most once per request for it.
 */
export interface EpochContext {
  controlNow?: () => Promise<EpochNow | undefined>;
}

/**
 * What the PSP holds for a payment this Region has no trace of: before a resolve voids an absent key, the PSP
 * is asked by our reference. With one Region the locator alone proves absence; after a forced
 * failover it does not, since the old Region's last second (its claim, locator and PSP call) never replicated.
 * Voiding then would tell the app "make a new key" for a key the PSP charged: a second charge (found by the
 * fault checker). Only a lookup that found nothing, and whose "nothing" is final (`notFoundFinalAt`: a lookup that
 * may lag is trusted only after the settle time since the epoch began), lets the void go on (undefined); a "nothing"
 * not final yet answers PROCESSING, with when to ask again. A charge answers SUCCEEDED
 * and a decline FAILED, as the old Region told the app; an unknown answers PROCESSING, and the app keeps
 * waiting or retries the same key. The row itself comes with the old Region's recovery or that retry.
 */
export async function chargeAtPsp(
  deps: PaymentDeps,
  paymentId: string,
  context: EpochContext,
): Promise<ChargeFound | undefined> {
  if (unsafeVoidWithoutPspLookup()) return undefined;
  const untilMs = deps.clock.now() + deps.config.deadlineMs;
  // No row here says when it was sent: the adapter's default window; each request takes its own budget slot.
  const gate = budgetGate(deps.pspBudget, deps.clock, {
    origin: "live",
    untilMs,
    maxWaitMs: maxWaitOf(deps, "live"),
  });
  const reply = countPspCall(
    "live",
    await deps.psp.findCharge(paymentId, untilMs - deps.clock.now(), "live", { gate }),
  );
  if (reply.kind === "not-found") return notFoundAnswer(deps, context);
  // A charge refunded since still went through: the app must not pay again with a new key (resolve has no REFUNDED).
  if (reply.kind === "done") return { state: "SUCCEEDED", psp_charge: reply.id };
  if (reply.kind === "declined")
    return { state: "FAILED", decline_code: reply.declineCode, psp_charge: reply.id };
  return { state: "PROCESSING" };
}

/**
 * What the PSP holds for a key voided under an earlier Region epoch than today's, read fresh through `epochNow`.
 * A void is a fact of the Region that wrote it; if that Region failed before the void shipped, the other Region
 * may have taken the same key and charged it, and that row may be lost with the other Region's last second in
 * turn (found by the fault checker). Answering VOID (resolve) or 409 key-voided (POST /payments) then would send
 * the app to a new key: a second charge. A void without an epoch (a claim's, or one written before the stamp)
 * counts as the first epoch. Undefined lets the void stand; in one Region the epoch stays 1 and no PSP call is made.
 */
export async function chargedSinceVoid(
  deps: PaymentDeps,
  paymentId: string,
  voidEpoch: number | undefined,
  context: EpochContext,
): Promise<ChargeFound | undefined> {
  const epoch = (await context.controlNow?.())?.epoch;
  if (epoch === undefined || (voidEpoch ?? 1) >= epoch) return undefined;
  return chargeAtPsp(deps, paymentId, context);
}

// A "not found" that may be a lagging index answers PROCESSING until it is final; the epoch's start is read only here.
async function notFoundAnswer(deps: PaymentDeps, context: EpochContext): Promise<ChargeFound | undefined> {
  if (deps.psp.lookupConsistent) return undefined;
  const finalAt = notFoundFinalAt(deps, await context.controlNow?.());
  const now = deps.clock.now();
  return now >= finalAt ? undefined : { state: "PROCESSING", retryAfterS: retryAfterSUntil(finalAt, now) };
}
