import Stripe from "stripe";
import { countSignal } from "../signals/signal-sink";
import type { PspReply } from "./psp-port";
import { retryAfterMsOf } from "./psp-replies";
import { unsafePendingRefundIsDone } from "./psp-test-switches";

const E = Stripe.errors;
type StripeError = InstanceType<typeof E.StripeError>;

/** Reads a Stripe error raised by a charge (a confirmed PaymentIntent) as the port's reply. */
export function chargeErrorReply(err: unknown, key: string): PspReply {
  const common = commonReply(err, key);
  if (common) return common;
  if (err instanceof E.StripeCardError) {
    const declineCode = err.decline_code ?? err.code ?? "card_declined";
    return { kind: "declined", declineCode, ...(err.payment_intent ? { id: err.payment_intent.id } : {}) };
  }
  // As the generic dialect's 400/404: the domain looks the charge up by our reference rather than guess. A 400 is
  // Stripe refusing the request itself (a reused PaymentMethod, an amount under the minimum, a bad parameter), so
  // a complete lookup that finds no intent settles it at once.
  if (err instanceof E.StripeInvalidRequestError) {
    const status = err.statusCode ?? 400;
    const code = err.code ?? err.rawType ?? `http_${status}`;
    return status === 400
      ? { kind: "saved-error", status, definite: true, code }
      : { kind: "saved-error", status };
  }
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

// What every call answers alike; nothing here throws, since a throw in the resolver stops its pass at this row. A
// key sent with another body (`idempotency_error`: a deploy changed the body within the key's 24 h, or a bug) is a
// saved error, never definite: the outcome of the key's first request is asked of the authoritative lookup. Bad
// credentials or permissions ran nothing: a configuration error for the configuration alarm, not a payment's outcome.
function commonReply(err: unknown, key: string): PspReply | undefined {
  if (err instanceof E.StripeIdempotencyError)
    return { kind: "saved-error", status: err.statusCode ?? 400, code: "idempotency_error" };
  if (err instanceof E.StripeAuthenticationError || err instanceof E.StripePermissionError)
    return misconfigured(err, key);
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

function misconfigured(err: StripeError, key: string): PspReply {
  const status = err.statusCode ?? (err instanceof E.StripeAuthenticationError ? 401 : 403);
  const what =
    status === 401
      ? "the Stripe secret key is refused: check that STRIPE_SECRET_KEY (the StripeSecretKey secret) is this " +
        "account's current key, of the right mode (sk_test_ for test mode, sk_live_ for live), and not rolled or expired"
      : "the Stripe key lacks a permission: a restricted key (rk_…) needs write access to PaymentIntents and Refunds " +
        "and read access to Charges";
  const call = key === "" ? "a lookup" : `the call under key ${key}`;
  // The configuration alarm's metric (PspConfigErrors): every call of the stage fails alike until a person fixes it.
  countSignal("PspConfigErrors");
  return {
    kind: "misconfigured",
    status,
    reason: `Stripe answered ${status} to ${call}: ${what} (${err.message})`,
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
  // Still on its way (`processing`): read again by its id, never by a replayed POST (which answers this same body).
  return { kind: "unknown", reason: `the PaymentIntent ${pi.id} is ${pi.status}`, id: pi.id };
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
