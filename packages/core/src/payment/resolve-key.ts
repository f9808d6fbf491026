import { paymentIdOf, scopeOf } from "../ids/derive-ids";
import type { PaymentRow } from "../ledger/ledger-items";
import { type ChargeFound, chargeAtPsp, chargedSinceVoid, type EpochContext } from "./charged-elsewhere";
import type { PaymentDeps } from "./payment-deps";
import { unsafeForgetPspFind, unsafeTrustInheritedVoid } from "./payment-test-switches";

export type ResolveState = "PROCESSING" | "SUCCEEDED" | "FAILED" | "VOID";

/** A resolve's answer; `retryAfterS` (for the Retry-After header, not the body): when to ask again. */
export interface Resolved {
  state: ResolveState;
  payment_id?: string;
  retryAfterS?: number;
}

/** How a resolve learns the Region control's epoch now and its start (see `chargedSinceVoid`, `chargeAtPsp`). */
export type ResolveContext = EpochContext;

/**
 * The app's "did it go through?" (Part 4, RESOLVE): a key that is found answers its state; an absent
 * key that the PSP has no charge for is voided in both stores, insert-if-absent, so that a late original can
 * never run; a "no charge" that may be a lagging lookup answers PROCESSING until it is final (issue 40). What an
 * earlier resolve found at the PSP stands over a later PROCESSING (`found-at-psp.ts`): an answer never goes back.
 */
export async function resolveKey(
  deps: PaymentDeps,
  caller: string,
  key: string,
  context: ResolveContext = {},
): Promise<Resolved> {
  const answer = await resolveOnce(deps, caller, key, context);
  if (answer.state !== "PROCESSING" || unsafeForgetPspFind()) return answer;
  const paymentId = paymentIdOf(caller, key);
  const kept = await deps.ledger.getFoundAtPsp(paymentId);
  return kept ? { state: kept.state, payment_id: paymentId } : answer;
}

async function resolveOnce(
  deps: PaymentDeps,
  caller: string,
  key: string,
  context: ResolveContext,
): Promise<Resolved> {
  const found = await lookUp(deps, caller, key, context);
  if (found) return found;
  const paymentId = paymentIdOf(caller, key);
  // Kept from an earlier resolve: the PSP is not asked again (a lookup costs pages and rate budget).
  const kept = unsafeForgetPspFind() ? undefined : await deps.ledger.getFoundAtPsp(paymentId);
  if (kept) return { state: kept.state, payment_id: paymentId };
  const atPsp = await chargeAtPsp(deps, paymentId, context);
  if (atPsp) return answerFound(deps, atPsp, paymentId);
  const scope = scopeOf(caller, key);
  const inTheWay = await deps.claims.table.void(scope);
  if (inTheWay && inTheWay.status !== "VOID") return { state: "PROCESSING", payment_id: paymentId };
  const tomb = await deps.ledger.insertVoid(caller, key, deps.clock.now());
  if (tomb.inserted || tomb.locator.state === "VOID") return { state: "VOID" };
  return tomb.payment ? stateOf(tomb.payment) : { state: "PROCESSING", payment_id: tomb.locator.payment_id };
}

async function lookUp(deps: PaymentDeps, caller: string, key: string, context: ResolveContext) {
  const locator = await deps.ledger.getLocator(caller, key);
  if (locator?.state === "VOID")
    return (await foundSinceVoid(deps, caller, key, locator.epoch, context)) ?? { state: "VOID" as const };
  if (locator) {
    const row = await deps.ledger.getPayment(locator.payment_id);
    return row ? stateOf(row) : { state: "PROCESSING" as const, payment_id: locator.payment_id };
  }
  const claim = await deps.claims.table.readLive(scopeOf(caller, key));
  if (claim?.status === "VOID") {
    // The claim's void carries no epoch, so it counts as the first one: after any failover the PSP is asked.
    const elsewhere = await foundSinceVoid(deps, caller, key, undefined, context);
    if (elsewhere) return elsewhere;
    // An earlier resolve may have died between its two writes: finish the durable one (insert-if-absent).
    const tomb = await deps.ledger.insertVoid(caller, key, deps.clock.now());
    if (tomb.inserted || tomb.locator.state === "VOID") return { state: "VOID" as const };
    return tomb.payment
      ? stateOf(tomb.payment)
      : { state: "PROCESSING" as const, payment_id: tomb.locator.payment_id };
  }
  // Claimed but not yet in the ledger: the original is running, so the app must keep waiting.
  if (claim) return { state: "PROCESSING" as const, payment_id: paymentIdOf(caller, key) };
  return undefined;
}

// A void of an earlier epoch than today's is first checked at the PSP; the test-only switch trusts it as before.
async function foundSinceVoid(
  deps: PaymentDeps,
  caller: string,
  key: string,
  voidEpoch: number | undefined,
  context: ResolveContext,
): Promise<Resolved | undefined> {
  if (unsafeTrustInheritedVoid()) return undefined;
  const paymentId = paymentIdOf(caller, key);
  const found = await chargedSinceVoid(deps, paymentId, voidEpoch, context);
  return found ? answerFound(deps, found, paymentId) : undefined;
}

/** The answer from what the PSP holds; a charge or a decline is kept first, so that no later answer takes it back. */
async function answerFound(deps: PaymentDeps, found: ChargeFound, paymentId: string): Promise<Resolved> {
  if (found.state === "PROCESSING")
    return {
      state: "PROCESSING",
      payment_id: paymentId,
      ...(found.retryAfterS ? { retryAfterS: found.retryAfterS } : {}),
    };
  if (!unsafeForgetPspFind()) {
    const outcome =
      found.state === "SUCCEEDED" ? { psp_charge: found.psp_charge } : { decline_code: found.decline_code };
    await deps.ledger.keepFoundAtPsp(paymentId, { state: found.state, ...outcome, at: deps.clock.now() });
  }
  return { state: found.state, payment_id: paymentId };
}

function stateOf(row: PaymentRow): { state: ResolveState; payment_id: string } {
  const state: ResolveState =
    row.state === "PENDING" || row.state === "UNKNOWN"
      ? "PROCESSING"
      : row.state === "FAILED"
        ? "FAILED"
        : "SUCCEEDED";
  return { state, payment_id: row.payment_id };
}
