/** The PSP's answer to a charge or refund, as the domain needs it. */
export type PspReply =
  /** Done; a lookup of a charge also says whether it has been refunded since (a replayed POST cannot). */
  | { kind: "done"; id: string; refunded?: true }
  | { kind: "declined"; declineCode: string; id?: string }
  /** A saved error for this key: the PSP will answer it again for as long as it keeps the key. */
  | { kind: "saved-error"; status: number }
  /** No answer, a timeout, a fresh 5xx: the outcome is unknown, never "failed". */
  | { kind: "unknown"; reason: string }
  /**
   * Not run: the PSP answered 429 (Stripe saves no result for it), or our own PSP budget had no slot in time.
   * Nothing was charged or refunded; the same key may be sent again after `retryAfterMs`.
   */
  | { kind: "rate-limited"; retryAfterMs: number; by: "psp" | "budget" }
  /** A lookup by our reference found nothing: maybe a lagging index, not yet proof of no charge. */
  | { kind: "not-found" }
  /** The PSP definitely refused this refund attempt (a 4xx with a reason); nothing was refunded. */
  | { kind: "refused"; code: string; reason: string }
  /** The charge was already refunded (at the PSP directly, or by another attempt). */
  | { kind: "already-refunded" }
  /**
   * The PSP accepted the refund but it is not final (Stripe: `pending`, `requires_action`): nothing is known to have
   * gone back yet; the refund is read again by its id, never by a replayed POST (which answers the body it saved).
   */
  | { kind: "refund-pending"; id: string }
  /** The PSP failed or canceled a refund AFTER accepting it (or answering it succeeded): the money did not go back. */
  | { kind: "refund-failed"; id: string; reason: string };

export interface ChargeParams {
  amount: number;
  currency: string;
  payment_method: string;
  reference: string;
}

/** Who calls the PSP: a live payment, or the resolver's replay (sent as the User-Agent, for the PSP's logs). */
export type PspOrigin = "live" | "resolver";

/** The card processor, always called with a derived idempotency key. */
export interface PspPort {
  charge(key: string, params: ChargeParams, timeoutMs: number, origin?: PspOrigin): Promise<PspReply>;
  refund(
    key: string,
    charge: string,
    reference: string,
    timeoutMs: number,
    origin?: PspOrigin,
  ): Promise<PspReply>;
  /**
   * Looks a charge up by our reference, every page of it, for a saved error or a forgotten key. `around` is when
   * the charge can have been attempted (our clock), for a PSP whose consistent lookup lists by creation time
   * (Stripe); an adapter that looks up by reference directly ignores it, and one that needs it has a default.
   */
  findCharge(
    reference: string,
    timeoutMs: number,
    origin?: PspOrigin,
    around?: { fromMs: number; toMs: number },
  ): Promise<PspReply>;
  /** Looks a charge's refunds up, for a refund whose key the PSP may have forgotten. */
  findRefund(charge: string, timeoutMs: number, origin?: PspOrigin): Promise<PspReply>;
  /**
   * Reads a refund by its id (consistent), for a refund the PSP accepted but had not finished. `charge` is the charge
   * it undoes, for a PSP that can only list a charge's refunds.
   */
  readRefund(refundId: string, timeoutMs: number, origin?: PspOrigin, charge?: string): Promise<PspReply>;
}
