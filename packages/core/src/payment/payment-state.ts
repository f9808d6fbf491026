import { unsafeAnyMoveToSucceeded } from "./payment-test-switches";

/** Every state a payment row can hold; VOID lives only on a locator tombstone. */
export type PaymentState =
  | "PENDING"
  | "UNKNOWN"
  | "SUCCEEDED"
  | "FAILED"
  | "REFUND_PENDING"
  | "REFUND_UNKNOWN"
  | "REFUNDED"
  | "REFUND_FAILED";

const ALLOWED: Record<PaymentState, readonly PaymentState[]> = {
  // Straight to REFUNDED: a lookup by our reference found the charge refunded already (a row inherited across a
  // failover, whose refund the failed Region made); the move journals the sale and its refund together.
  PENDING: ["SUCCEEDED", "FAILED", "UNKNOWN", "REFUNDED"],
  UNKNOWN: ["SUCCEEDED", "FAILED", "REFUNDED"],
  // SUCCEEDED -> REFUNDED: a refund made at the PSP directly (its webhook, or charge_already_refunded).
  SUCCEEDED: ["REFUND_PENDING", "REFUNDED"],
  FAILED: [],
  // Back to SUCCEEDED: the PSP definitely refused this refund attempt; a later one gets a new suffix. To itself (and
  // from UNKNOWN): the PSP accepted the refund but holds it pending, and the row learns the refund's id to read it by.
  // To REFUND_FAILED: the PSP failed the refund after accepting it.
  REFUND_PENDING: ["REFUNDED", "REFUND_UNKNOWN", "SUCCEEDED", "REFUND_PENDING", "REFUND_FAILED"],
  REFUND_UNKNOWN: ["REFUNDED", "SUCCEEDED", "REFUND_PENDING", "REFUND_FAILED"],
  // A refund can fail after the PSP answered it succeeded (Stripe: a card that can no longer take it).
  REFUNDED: ["REFUND_FAILED"],
  // A later cancel tries again, as the next attempt.
  REFUND_FAILED: ["REFUND_PENDING"],
};

/** The states a move into `to` may come from; every move is a compare-and-set on one of them. */
export function sourcesOf(to: PaymentState): PaymentState[] {
  return (Object.keys(ALLOWED) as PaymentState[]).filter((from) => ALLOWED[from].includes(to));
}

/** Whether the state machine allows the move. */
export function canMove(from: PaymentState, to: PaymentState): boolean {
  return ALLOWED[from].includes(to);
}

/** The states of a refund attempt in flight. */
export const REFUND_STATES: readonly PaymentState[] = ["REFUND_PENDING", "REFUND_UNKNOWN"];

/** The states a charge's own answer (reply, webhook, resolver) may settle from. */
export const CHARGE_OPEN_STATES: readonly PaymentState[] = ["PENDING", "UNKNOWN"];

/**
 * Whether a move may happen now. Leaving a refund attempt back to SUCCEEDED must be named by the caller
 * (`from`), so that a late or repeated charge.succeeded can never undo a refund in flight; so must settling an open
 * charge straight into REFUNDED, which only a lookup that saw the refund at the PSP does.
 */
export function mayMove(current: PaymentState, to: PaymentState, from?: readonly PaymentState[]): boolean {
  if (!canMove(current, to)) return false;
  if (from) return from.includes(current);
  if (to === "REFUNDED" && CHARGE_OPEN_STATES.includes(current)) return false;
  if (unsafeAnyMoveToSucceeded()) return true;
  return !(to === "SUCCEEDED" && REFUND_STATES.includes(current));
}

/** Final states: they leave the resolver's sparse index. */
export const isSwept = (s: PaymentState): boolean => SWEPT_STATES.includes(s);

/** States whose outcome is not yet known and that the resolver sweeps. */
export const SWEPT_STATES: readonly PaymentState[] = [
  "PENDING",
  "UNKNOWN",
  "REFUND_PENDING",
  "REFUND_UNKNOWN",
];

/** Whether the charge's outcome is settled (the refund states follow a settled charge). */
export const isChargeFinal = (s: PaymentState): boolean => s !== "PENDING" && s !== "UNKNOWN";
