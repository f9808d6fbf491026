import { takeFault } from "../faults/faults";

/**
 * EO_TEST_UNSAFE_NO_DEADLINE_CHECK=1 removes the check that a request which stalled after its claim
 * commits nothing past its deadline; tests use it to show the late row it would leave (Part 4).
 */
export const unsafeNoDeadlineCheck = (): boolean => process.env.EO_TEST_UNSAFE_NO_DEADLINE_CHECK === "1";

/**
 * EO_TEST_UNSAFE_KEEP_INDEX_ON_MOVE=1 lets a move carry the row's old index fields on, as before the fix:
 * a settled payment then stays in the resolver's index for ever.
 */
export const unsafeKeepIndexOnMove = (): boolean => process.env.EO_TEST_UNSAFE_KEEP_INDEX_ON_MOVE === "1";

/**
 * EO_TEST_UNSAFE_ANY_MOVE_TO_SUCCEEDED=1 lets any allowed move into SUCCEEDED leave a refund in flight, so a
 * late charge.succeeded undoes the refund attempt.
 */
export const unsafeAnyMoveToSucceeded = (): boolean =>
  process.env.EO_TEST_UNSAFE_ANY_MOVE_TO_SUCCEEDED === "1";

/**
 * EO_TEST_UNSAFE_NO_FINGERPRINT=1 binds a key to no request (side trace 3d taken away): the same key with another
 * amount is answered as the first request, and the client is told its payment succeeded although none of that
 * amount ran.
 */
export const unsafeNoFingerprint = (): boolean => process.env.EO_TEST_UNSAFE_NO_FINGERPRINT === "1";

/** EO_TEST_UNSAFE_NOT_FOUND_IS_DECLINE=1 reads a lookup that found nothing as a decline at once. */
export const unsafeNotFoundIsDecline = (): boolean => process.env.EO_TEST_UNSAFE_NOT_FOUND_IS_DECLINE === "1";

/**
 * EO_TEST_UNSAFE_DEFINITE_REFUSAL_WAITS=1 gives a charge the PSP refused with a definite 400 (a reused
 * PaymentMethod, an amount under the minimum) the not-found settle period, as before issue 39: the buyer hears
 * PROCESSING and the payment stays open for 10 minutes although no intent can exist.
 */
export const unsafeDefiniteRefusalWaits = (): boolean =>
  process.env.EO_TEST_UNSAFE_DEFINITE_REFUSAL_WAITS === "1";

/**
 * EO_TEST_UNSAFE_NO_RESOLVER_ISOLATION=1 lets a row whose settle throws end the resolver's pass, as before issue 39:
 * the row stays at the head of the sweep index and every later pass throws there, so the rows behind it are never
 * settled.
 */
export const unsafeNoResolverIsolation = (): boolean =>
  process.env.EO_TEST_UNSAFE_NO_RESOLVER_ISOLATION === "1";

/**
 * EO_TEST_UNSAFE_NO_PSP_MINIMUM=1 sends an amount under the PSP's per-currency minimum to the PSP, as before issue
 * 39: the payment row is written and the PSP refuses the charge, instead of a 422 that writes nothing.
 */
export const unsafeNoPspMinimum = (): boolean => process.env.EO_TEST_UNSAFE_NO_PSP_MINIMUM === "1";

/**
 * The `stall_after_claim_ms` fault: the claimed request freezes (a GC pause, a paused VM) before its guard; the
 * `stall_after_psp_ms` fault freezes it after the PSP answered, so that it wakes a zombie after a takeover (3c).
 */
export async function stallIfArmed(
  fault: "stall_after_claim_ms" | "stall_after_psp_ms" = "stall_after_claim_ms",
): Promise<void> {
  const ms = takeFault(fault);
  if (ms !== undefined && ms > 0) await new Promise((r) => setTimeout(r, ms));
}

/** Resolve voids an absent key without asking the PSP first: the hole a forced failover opens (Part 9). */
export const unsafeVoidWithoutPspLookup = (): boolean =>
  process.env.EO_TEST_UNSAFE_VOID_WITHOUT_PSP_LOOKUP === "1";

/**
 * EO_TEST_UNSAFE_TAKE_EARLY_EVENTS=1 takes a PSP event that names a payment this Region has no row for, a refund
 * whose charge is still open here, or news of a refund of ours this Region has not started (Stripe's refund failed
 * later, met by a Region behind the refund's writes), with a 200 as before the fault checker found each: the refund,
 * or its failure, is then lost.
 */
export const unsafeTakeEarlyEvents = (): boolean => process.env.EO_TEST_UNSAFE_TAKE_EARLY_EVENTS === "1";

/**
 * EO_TEST_UNSAFE_NO_REFUND_CATCH_UP=1 leaves a row behind its replicated refund journal, as before the fault
 * checker found it: the payment reads SUCCEEDED for ever while the PSP says REFUNDED.
 */
export const unsafeNoRefundCatchUp = (): boolean => process.env.EO_TEST_UNSAFE_NO_REFUND_CATCH_UP === "1";

/**
 * EO_TEST_UNSAFE_REPLAY_VOIDED_KEY=1 lets the resolver replay the charge of a row whose key's locator is VOID, as
 * before the fault checker found it: after a forced failover the row of the failed Region arrives and is charged.
 */
export const unsafeReplayVoidedKey = (): boolean => process.env.EO_TEST_UNSAFE_REPLAY_VOIDED_KEY === "1";

/**
 * EO_TEST_UNSAFE_REPLAY_INHERITED_ROW=1 lets the resolver replay the charge of a row guarded under an earlier Region
 * epoch, as before the fault checker found it: a key voided in a Region whose last second was lost in a forced
 * failover is charged by the Region that comes back, beside the new key the app paid with.
 */
export const unsafeReplayInheritedRow = (): boolean =>
  process.env.EO_TEST_UNSAFE_REPLAY_INHERITED_ROW === "1";

/**
 * EO_TEST_UNSAFE_TRUST_INHERITED_VOID=1 lets resolve answer VOID from a tombstone written under an earlier Region
 * epoch without asking the PSP, as before the fault checker found it: the key charged in the other Region while
 * the tombstone was unshipped is told VOID, and the app's new key charges the order again.
 */
export const unsafeTrustInheritedVoid = (): boolean =>
  process.env.EO_TEST_UNSAFE_TRUST_INHERITED_VOID === "1";

/**
 * EO_TEST_UNSAFE_NO_RESOLVER_RECHECK=1 lets a resolver pass go on replaying PSP calls after the authority stopped
 * naming its Region mid-pass (the check before each call taken away).
 */
export const unsafeNoResolverRecheck = (): boolean => process.env.EO_TEST_UNSAFE_NO_RESOLVER_RECHECK === "1";

/**
 * EO_TEST_UNSAFE_TRUST_INHERITED_VOID_ON_PAY=1 lets POST /payments answer 409 key-voided from a void written under
 * an earlier Region epoch without asking the PSP, as before issue 26: the key charged in the other Region while the
 * void was unshipped is refused, and an app that makes a new key on the 409 charges the order again.
 */
export const unsafeTrustInheritedVoidOnPay = (): boolean =>
  process.env.EO_TEST_UNSAFE_TRUST_INHERITED_VOID_ON_PAY === "1";

/**
 * EO_TEST_UNSAFE_NO_FAIR_QUEUE=1 takes the fair queue away: a refused payment keeps no place, so whichever retry
 * lands on a free slot wins and a buyer who tapped first can be served after later ones (the run before issue 29).
 */
export const unsafeNoFairQueue = (): boolean => process.env.EO_TEST_UNSAFE_NO_FAIR_QUEUE === "1";

/**
 * EO_TEST_UNSAFE_WIDE_LOOKUP_WINDOW=1 lists the whole key window after the row's creation (24 h) instead of around
 * its recorded sends, and keeps no cursor across passes, as before issue 39: at real volume the lookup reads every
 * intent of the account for a day, runs past its pages and time, and a lost reply is never settled by a pass.
 */
export const unsafeWideLookupWindow = (): boolean => process.env.EO_TEST_UNSAFE_WIDE_LOOKUP_WINDOW === "1";

/**
 * EO_TEST_UNSAFE_NO_REFUND_TAKE_BACK=1 moves a REFUNDED payment whose refund the PSP failed later to REFUND_FAILED
 * without the entry that takes the merchant's debit back: the merchant stays debited for money that never left (the
 * buyer is told, by a notice that credits nothing).
 */
export const unsafeNoRefundTakeBack = (): boolean => process.env.EO_TEST_UNSAFE_NO_REFUND_TAKE_BACK === "1";

/**
 * EO_TEST_UNSAFE_REPLAY_OPEN_CHARGE=1 settles a charge the PSP accepted but had not finished (Stripe: `processing`)
 * by replaying its POST, as before issue 39: the replay answers the body saved at creation, so the payment stays
 * UNKNOWN (PROCESSING to the buyer) after the PSP has charged it, until the key is forgotten.
 */
export const unsafeReplayOpenCharge = (): boolean => process.env.EO_TEST_UNSAFE_REPLAY_OPEN_CHARGE === "1";

/**
 * EO_TEST_UNSAFE_OPERATOR_RESOLVER_CHECKS_ONCE=1 makes `npm run resolve-unknowns` check the Region control once,
 * ignoring `active_from`, and replay every row with no check before each PSP call and no time bound, as before issue
 * 40: a run that began before a failover (or on a laptop that slept) goes on charging in the Region no longer active.
 */
export const unsafeOperatorResolverChecksOnce = (): boolean =>
  process.env.EO_TEST_UNSAFE_OPERATOR_RESOLVER_CHECKS_ONCE === "1";

/**
 * EO_TEST_UNSAFE_FORGET_PSP_FIND=1 keeps nothing a resolve found at the PSP for a key with no final row here (as
 * before the fix): a later resolve whose lookup lags answers PROCESSING after SUCCEEDED (seed 99's schedule 351).
 */
export const unsafeForgetPspFind = (): boolean => process.env.EO_TEST_UNSAFE_FORGET_PSP_FIND === "1";
