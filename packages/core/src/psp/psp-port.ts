/** The PSP's answer to a charge or refund, as the domain needs it. */
export type PspReply =
  | { kind: "done"; id: string }
  | { kind: "declined"; declineCode: string; id?: string }
  /** A saved error for this key: the PSP will answer it again for as long as it keeps the key. */
  | { kind: "saved-error"; status: number }
  /** No answer, a timeout, a 5xx, a 429: the outcome is unknown, never "failed". */
  | { kind: "unknown"; reason: string }
  /** A lookup by our reference found nothing: maybe a lagging index, not yet proof of no charge. */
  | { kind: "not-found" }
  /** The PSP definitely refused this refund attempt (a 4xx with a reason); nothing was refunded. */
  | { kind: "refused"; code: string; reason: string }
  /** The charge was already refunded (at the PSP directly, or by another attempt). */
  | { kind: "already-refunded" };

export interface ChargeParams {
  amount: number;
  currency: string;
  payment_method: string;
  reference: string;
}

/** The card processor, always called with a derived idempotency key. */
export interface PspPort {
  charge(key: string, params: ChargeParams, timeoutMs: number): Promise<PspReply>;
  refund(key: string, charge: string, reference: string, timeoutMs: number): Promise<PspReply>;
  /** Looks a charge up by our reference, every page of it, for a saved error or a forgotten key. */
  findCharge(reference: string, timeoutMs: number): Promise<PspReply>;
  /** Looks a charge's refunds up, for a refund whose key the PSP may have forgotten. */
  findRefund(charge: string, timeoutMs: number): Promise<PspReply>;
}
