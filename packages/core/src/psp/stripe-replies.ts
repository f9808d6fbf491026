import Stripe from "stripe";
import type { PspReply } from "./psp-port";
import { retryAfterMsOf } from "./psp-replies";
import { unsafePendingRefundIsDone } from "./psp-test-switches";

const E = Stripe.errors;
type StripeError = InstanceType<typeof E.StripeError>;

/**
 * A derived key sent again with other parameters (Stripe's `idempotency_error`): a bug in us, since the key names
 * one request. It is thrown, never answered as a reply a caller could retry or settle on.
 */
export class PspKeyMisuse extends Error {
  override readonly name = "PspKeyMisuse";

  constructor(
    readonly key: string,
    readonly requestId: string | undefined,
    message: string,
  ) {
    super(`the PSP refused key ${key} with other parameters than its first request: ${message}`);
  }
}

/** Reads a Stripe error raised by a charge (a confirmed PaymentIntent) as the port's reply. */
export function chargeErrorReply(err: unknown, key: string): PspReply {
  const common = commonReply(err, key);
  if (common) return common;
  if (err instanceof E.StripeCardError) {
    const declineCode = err.decline_code ?? err.code ?? "card_declined";
    return { kind: "declined", declineCode, ...(err.payment_intent ? { id: err.payment_intent.id } : {}) };
  }
  // As the generic dialect's 400/404: the domain looks the charge up by our reference rather than guess.
  if (err instanceof E.StripeInvalidRequestError)
    return { kind: "saved-error", status: err.statusCode ?? 400 };
  return unknownOf(err);
}

/**
 * Reads a Stripe error raised by a refund: a 4xx with a code is a definite refusal of this attempt (nothing was
 * refunded), except `charge_already_refunded`, which says the money has already gone back.
 */
export function refundErrorReply(err: unknown, key: string): PspReply {
  const common = commonReply(err, key);
  if (common) return common;
  if (err instanceof E.StripeInvalidRequestError || err instanceof E.StripeCardError) {
    if (err.code === "charge_already_refunded") return { kind: "already-refunded" };
    const code = err.code ?? err.rawType ?? `http_${err.statusCode ?? 400}`;
    return { kind: "refused", code, reason: err.message };
  }
  return unknownOf(err);
}

/** Reads a Stripe error raised by a lookup (a GET): it never settles anything, so all but a 429 is unknown. */
export function lookupErrorReply(err: unknown): PspReply {
  return commonReply(err, "") ?? unknownOf(err);
}

// What every call answers alike. An idempotency error is a bug and bad credentials a misconfiguration: both are
// thrown, so that they fail loudly instead of being retried for ever as an unknown.
function commonReply(err: unknown, key: string): PspReply | undefined {
  if (err instanceof E.StripeIdempotencyError) throw new PspKeyMisuse(key, err.requestId, err.message);
  if (err instanceof E.StripeAuthenticationError || err instanceof E.StripePermissionError) throw err;
  // A 429 is answered before the request runs and is never saved under the key: nothing was charged.
  if (err instanceof E.StripeRateLimitError) {
    return { kind: "rate-limited", retryAfterMs: retryAfterMsOf(headerOf(err, "retry-after")), by: "psp" };
  }
  if (err instanceof E.StripeAPIError) return serverErrorReply(err);
  if (err instanceof E.StripeConnectionError) return { kind: "unknown", reason: err.message };
  return undefined;
}

// A 5xx is a saved error only when Stripe says it is the key's saved result (replayed, or "do not retry": Stripe's
// idempotency layer would answer it again). A fresh one, and a 409 for a key still in flight, may yet charge.
function serverErrorReply(err: StripeError): PspReply {
  const status = err.statusCode ?? 500;
  const replayed = headerOf(err, "idempotent-replayed") === "true";
  const final = headerOf(err, "stripe-should-retry") === "false";
  if (status !== 409 && (replayed || final)) return { kind: "saved-error", status };
  return {
    kind: "unknown",
    reason: `Stripe answered ${status}${err.code ? ` ${err.code}` : ""}: ${err.message}`,
  };
}

function unknownOf(err: unknown): PspReply {
  return { kind: "unknown", reason: err instanceof Error ? err.message : String(err) };
}

function headerOf(err: StripeError, name: string): string | null {
  return err.headers?.[name] ?? null;
}

/**
 * Reads a PaymentIntent as the port's reply: succeeded is done (refunded when its latest charge is), a failed
 * attempt is a decline with Stripe's code, and an intent still on its way is unknown.
 */
export function intentReply(pi: Stripe.PaymentIntent): PspReply {
  if (pi.status === "succeeded") {
    const charge = pi.latest_charge;
    const refunded = typeof charge === "object" && charge?.refunded === true;
    return { kind: "done", id: pi.id, ...(refunded ? { refunded: true as const } : {}) };
  }
  if (pi.status === "requires_payment_method") {
    const e = pi.last_payment_error;
    return { kind: "declined", declineCode: e?.decline_code ?? e?.code ?? "card_declined", id: pi.id };
  }
  // We never hand out the client secret, so no buyer can ever complete an authentication: nothing will be charged.
  if (pi.status === "requires_action") {
    return { kind: "declined", declineCode: "authentication_required", id: pi.id };
  }
  if (pi.status === "canceled") {
    return { kind: "declined", declineCode: pi.cancellation_reason ?? "canceled", id: pi.id };
  }
  return { kind: "unknown", reason: `the PaymentIntent ${pi.id} is ${pi.status}` };
}

/**
 * How a refund was read: in the reply to its creation (a replay answers the body saved then), or by its id or a list
 * (as it is now).
 */
export type RefundSeen = "created" | "read";

/**
 * Reads a refund as the port's reply. Only `succeeded` is done; `pending` and `requires_action` are accepted and not
 * final. A refund `failed` or `canceled` in its creation reply refunded nothing and is a refusal of this attempt; one
 * read so later failed after Stripe accepted it.
 */
export function refundReply(refund: Stripe.Refund, seen: RefundSeen = "created"): PspReply {
  const status = refund.status ?? "pending";
  if (status === "succeeded") return { kind: "done", id: refund.id };
  if (status === "failed" || status === "canceled") {
    const reason = refund.failure_reason ?? status;
    if (seen === "read") return { kind: "refund-failed", id: refund.id, reason };
    return { kind: "refused", code: reason, reason: `the refund ${refund.id} is ${status}` };
  }
  if (unsafePendingRefundIsDone()) return { kind: "done", id: refund.id };
  return { kind: "refund-pending", id: refund.id };
}
