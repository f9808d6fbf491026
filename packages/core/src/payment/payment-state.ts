/** Every state a payment row can hold; VOID lives only on a locator tombstone. */
export type PaymentState =
  | "PENDING"
  | "UNKNOWN"
  | "SUCCEEDED"
  | "FAILED"
  | "REFUND_PENDING"
  | "REFUND_UNKNOWN"
  | "REFUNDED";

const ALLOWED: Record<PaymentState, readonly PaymentState[]> = {
  PENDING: ["SUCCEEDED", "FAILED", "UNKNOWN"],
  UNKNOWN: ["SUCCEEDED", "FAILED"],
  SUCCEEDED: ["REFUND_PENDING"],
  FAILED: [],
  REFUND_PENDING: ["REFUNDED", "REFUND_UNKNOWN"],
  REFUND_UNKNOWN: ["REFUNDED"],
  REFUNDED: [],
};

/** The states a move into `to` may come from; every move is a compare-and-set on one of them. */
export function sourcesOf(to: PaymentState): PaymentState[] {
  return (Object.keys(ALLOWED) as PaymentState[]).filter((from) => ALLOWED[from].includes(to));
}

/** Whether the state machine allows the move. */
export function canMove(from: PaymentState, to: PaymentState): boolean {
  return ALLOWED[from].includes(to);
}

/** States whose outcome is not yet known and that the resolver sweeps. */
export const SWEPT_STATES: readonly PaymentState[] = [
  "PENDING",
  "UNKNOWN",
  "REFUND_PENDING",
  "REFUND_UNKNOWN",
];

/** Whether the charge's outcome is settled (the refund states follow a settled charge). */
export const isChargeFinal = (s: PaymentState): boolean => s !== "PENDING" && s !== "UNKNOWN";
