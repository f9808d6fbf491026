import { refundMarkIndexPk } from "./index-shards";
import { type PaymentRow, padTime, paymentKey } from "./ledger-items";
import { unsafeNoRefundInFlightFact, unsafeNoRefundMark } from "./ledger-test-switches";

/** The sort key prefix of a refund attempt's in-flight fact (attempt 1 bare, attempt n ≥ 2 suffixed `#n`). */
export const REFUND_PENDING_FACT_SK = "FACT#REFUND_PENDING";
/** The sort key prefix of the fact that a refund attempt ended refused (the payment went back to SUCCEEDED). */
export const REFUND_REFUSED_FACT_SK = "FACT#REFUND_REFUSED";

/** Which of the two a refund's in-flight fact is. */
export type InFlightState = "REFUND_PENDING" | "REFUND_REFUSED";

/**
 * The sort key of a refund attempt's in-flight fact or of its refusal's, keyed as the refund's journal entries are
 * (`JOURNAL#3`, `JOURNAL#3#n`): every attempt's facts are items of their own, each written once.
 */
export function inFlightFactSk(state: InFlightState, attempt = 1): string {
  const base = state === "REFUND_PENDING" ? REFUND_PENDING_FACT_SK : REFUND_REFUSED_FACT_SK;
  return attempt <= 1 ? base : `${base}#${attempt}`;
}

/** The refund attempt and what a sort key says of it, when it is an in-flight or refusal fact (and they are read). */
export function inFlightFactOf(sk: unknown): { state: InFlightState; attempt: number } | undefined {
  if (unsafeNoRefundInFlightFact()) return undefined;
  const m =
    typeof sk === "string" ? /^FACT#(REFUND_PENDING|REFUND_REFUSED)(?:#([1-9][0-9]*))?$/.exec(sk) : null;
  if (!m) return undefined;
  return { state: m[1] as InFlightState, attempt: m[2] ? Number(m[2]) : 1 };
}

/**
 * The put-if-absent of a refund attempt's in-flight fact (with the move into REFUND_PENDING that starts the attempt)
 * or of its refusal's (with the move back to SUCCEEDED); undefined when the test switch leaves them out. The pending
 * fact names the charge, so that a row merged forward from it can be refunded whatever copy of the row won, and it is
 * marked in the sparse index until a resolver pass sees the attempt over: the stream's catch-up runs in an active
 * Region only, and a fact both Regions met while passive would otherwise never be caught up (issue 42).
 */
export function inFlightFact(table: string, row: PaymentRow, state: InFlightState, now: number) {
  if (unsafeNoRefundInFlightFact()) return undefined;
  const attempt = row.refund_attempt ?? 1;
  const item = {
    ...paymentKey(row.payment_id),
    sk: inFlightFactSk(state, attempt),
    refund_attempt: attempt,
    ...(row.psp_charge ? { psp_charge: row.psp_charge } : {}),
    at: now,
    ...(state === "REFUND_PENDING" && !unsafeNoRefundMark()
      ? { gsi1pk: refundMarkIndexPk(row.payment_id), gsi1sk: padTime(now) }
      : {}),
  };
  return { TableName: table, Item: item, ConditionExpression: "attribute_not_exists(pk)" };
}
