import { createHash, randomUUID } from "node:crypto";
import { unsafeRandomEventId, unsafeRegionAttemptKey } from "./id-test-switches";

/** The scope of a key (Part 2): the endpoint, the authenticated caller and the client's key. */
export function scopeOf(caller: string, key: string): string {
  // The caller is escaped: keys may hold ":", so caller "u:1" with key "K" must not meet caller "u"
  // with key "1:K".
  return `payments:${encodeURIComponent(caller)}:${key}`;
}

/** The payment id derived from the scope: opaque (a hash), and the same in every Region and retry. */
export function paymentIdOf(caller: string, key: string): string {
  return `pay_${createHash("sha256").update(scopeOf(caller, key)).digest("hex").slice(0, 32)}`;
}

/** The PSP idempotency key of the charge: the same in every Region and on every retry. */
export function chargeKeyOf(paymentId: string): string {
  if (unsafeRegionAttemptKey())
    return `${paymentId}:${process.env.REGION_ROLE === "standby" ? "R2" : "R1"}:1`;
  return `${paymentId}:charge`;
}

/**
 * The PSP idempotency key of a refund attempt that undoes the charge: one suffix per attempt (Part 2), so
 * a new attempt after a definite refusal is not answered with the refusal saved under the first key.
 */
export const refundKeyOf = (paymentId: string, attempt = 1): string =>
  attempt <= 1 ? `${paymentId}:cancel:refund` : `${paymentId}:cancel:refund:${attempt}`;

/** The event id of a payment's state: what the queue, the inbox and the intents recognise. */
export const eventIdOf = (paymentId: string, state: string): string => `${paymentId}:${state}`;

/** The event id an outbox item stores: derived, so that another Region re-creates the same one (Part 2). */
export function outboxEventIdOf(paymentId: string, state: string): string {
  return unsafeRandomEventId() ? randomUUID() : eventIdOf(paymentId, state);
}

/** Reads the payment id back out of a PSP idempotency key we derived. */
export function paymentIdFromPspKey(key: string): string | undefined {
  return /^(pay_[0-9a-f]{32}):/.exec(key)?.[1];
}
