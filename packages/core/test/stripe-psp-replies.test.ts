import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { chargeErrorReply, lookupErrorReply, refundErrorReply, refundReply } from "../src/psp/stripe-replies";

const E = Stripe.errors;
const raw = (
  statusCode: number,
  headers: Record<string, string> = {},
  more: Record<string, unknown> = {},
) => ({
  statusCode,
  headers,
  message: `answered ${statusCode}`,
  ...more,
});

describe("every Stripe error class onto the port's replies", () => {
  it("a 5xx is a saved error when replayed or marked Stripe-Should-Retry: false, else unknown", () => {
    // act
    const replayed = chargeErrorReply(new E.StripeAPIError(raw(500, { "idempotent-replayed": "true" })), "k");
    const final = chargeErrorReply(new E.StripeAPIError(raw(503, { "stripe-should-retry": "false" })), "k");
    const fresh = chargeErrorReply(new E.StripeAPIError(raw(500, { "stripe-should-retry": "true" })), "k");
    // assess
    expect(replayed).toEqual({ kind: "saved-error", status: 500 });
    expect(final).toEqual({ kind: "saved-error", status: 503 });
    expect(fresh.kind).toBe("unknown");
  });

  it("a 409 for a key still in flight is unknown, whatever its headers say", () => {
    const err = new E.StripeAPIError(
      raw(
        409,
        { "stripe-should-retry": "false" },
        { type: "idempotency_error", code: "idempotency_key_in_use" },
      ),
    );
    expect(chargeErrorReply(err, "k").kind).toBe("unknown");
  });

  it("a 429 is rate-limited by the PSP, with Retry-After's wait or 1 s", () => {
    const withWait = new E.StripeRateLimitError(raw(429, { "retry-after": "3" }));
    const without = new E.StripeRateLimitError(raw(429));
    expect(chargeErrorReply(withWait, "k")).toEqual({ kind: "rate-limited", retryAfterMs: 3_000, by: "psp" });
    expect(refundErrorReply(without, "k")).toEqual({ kind: "rate-limited", retryAfterMs: 1_000, by: "psp" });
  });

  it("a connection error or a timeout is unknown", () => {
    const timeout = new E.StripeConnectionError({
      message: "Request aborted due to timeout being reached (5ms)",
    });
    expect(chargeErrorReply(timeout, "k")).toEqual({ kind: "unknown", reason: timeout.message });
  });

  it("an invalid request is a saved error on a charge and refused with its code on a refund", () => {
    const invalid = new E.StripeInvalidRequestError(raw(400, {}, { code: "parameter_missing" }));
    const refunded = new E.StripeInvalidRequestError(raw(400, {}, { code: "charge_already_refunded" }));
    expect(chargeErrorReply(invalid, "k")).toEqual({
      kind: "saved-error",
      status: 400,
      definite: true,
      code: "parameter_missing",
    });
    expect(refundErrorReply(invalid, "k")).toMatchObject({ kind: "refused", code: "parameter_missing" });
    expect(refundErrorReply(refunded, "k")).toEqual({ kind: "already-refunded" });
  });

  it("nothing is thrown: an idempotency error is a saved error to look up, bad credentials a configuration error", () => {
    const misuse = new E.StripeIdempotencyError(raw(400, {}, { type: "idempotency_error" }));
    const auth = new E.StripeAuthenticationError(raw(401));
    const denied = new E.StripePermissionError(raw(403));
    expect(chargeErrorReply(misuse, "pay_1:charge")).toEqual({
      kind: "saved-error",
      status: 400,
      code: "idempotency_error",
    });
    expect(refundErrorReply(auth, "k")).toMatchObject({ kind: "misconfigured", status: 401 });
    expect(lookupErrorReply(denied)).toMatchObject({ kind: "misconfigured", status: 403 });
    expect(refundErrorReply(auth, "k").kind === "misconfigured" && refundErrorReply(auth, "k")).toMatchObject(
      {
        reason: expect.stringMatching(/STRIPE_SECRET_KEY.*key k|key k.*STRIPE_SECRET_KEY/),
      },
    );
  });

  it("a lookup's invalid request settles nothing: unknown", () => {
    const notFound = new E.StripeInvalidRequestError(raw(404, {}, { code: "resource_missing" }));
    expect(lookupErrorReply(notFound).kind).toBe("unknown");
  });
});

describe("a Refund as the port's reply: only succeeded is done (issue 39)", () => {
  const refund = (status: string, failure_reason: string | null = null) =>
    ({ id: "re_1", object: "refund", status, failure_reason }) as unknown as Stripe.Refund;

  it("pending and requires_action are accepted and not final: refund-pending with the refund's id", () => {
    expect(refundReply(refund("pending"))).toEqual({ kind: "refund-pending", id: "re_1" });
    expect(refundReply(refund("requires_action"), "read")).toEqual({ kind: "refund-pending", id: "re_1" });
    expect(refundReply(refund("succeeded"))).toEqual({ kind: "done", id: "re_1" });
  });

  it("failed in the creation reply is a refusal; failed when read later is a refund that failed, with Stripe's reason", () => {
    const failed = refund("failed", "expired_or_canceled_card");
    expect(refundReply(failed)).toMatchObject({ kind: "refused", code: "expired_or_canceled_card" });
    expect(refundReply(failed, "read")).toEqual({
      kind: "refund-failed",
      id: "re_1",
      reason: "expired_or_canceled_card",
    });
    expect(refundReply(refund("canceled"), "read")).toEqual({
      kind: "refund-failed",
      id: "re_1",
      reason: "canceled",
    });
  });
});
