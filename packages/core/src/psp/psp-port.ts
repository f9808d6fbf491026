/** The PSP's answer to a charge or refund, as the domain needs it. */
export type PspReply =
  /** Done; a lookup of a charge also says whether it has been refunded since (a replayed POST cannot). */
  | { kind: "done"; id: string; refunded?: true }
  | { kind: "declined"; declineCode: string; id?: string }
  /**
   * A saved error for this key: the PSP will answer it again for as long as it keeps the key, so the charge is
   * looked up by our reference instead. `definite`: the PSP refused the request itself (a 400 such as a reused
   * PaymentMethod or an amount under its minimum), so a complete lookup that finds nothing settles it at once;
   * `code` is the PSP's error code (`idempotency_error` for a key sent with another body: never definite).
   */
  | { kind: "saved-error"; status: number; definite?: true; code?: string }
  /**
   * No answer, a timeout, a fresh 5xx: the outcome is unknown, never "failed". `id`: the PSP's object of a charge it
   * accepted and is still finishing (Stripe: a PaymentIntent `processing`), read again by that id, since a replayed
   * POST answers the body the PSP saved at creation for as long as it keeps the key.
   */
  | { kind: "unknown"; reason: string; id?: string }
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
   * The PSP refused our credentials (401) or their permissions (403): nothing ran. A configuration error, never a
   * payment's outcome; the row is left as it is and the configuration alarm pages (`reason` says what to check).
   */
  | { kind: "misconfigured"; status: number; reason: string }
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
  /**
   * The version of the PSP request body this payment was first sent with (the row's `body_version`; absent is 1):
   * a replay under the same key must send the same body, or the PSP answers it as another request.
   */
  bodyVersion?: number;
}

/**
 * The body version new payments are stamped with at the durable guard. 1: the first body; 2: Stripe's
 * `error_on_requires_action: true`, so that a card that needs authentication fails instead of leaving an intent open.
 * Raise it with every change to a create or refund body, and keep every older version buildable for 24 h of replays.
 */
export const PSP_BODY_VERSION = 2;

/** Who calls the PSP: a live payment, or the resolver's replay (sent as the User-Agent, for the PSP's logs). */
export type PspOrigin = "live" | "resolver";

/** The card processor, always called with a derived idempotency key. */
export interface PspPort {
  /**
   * Whether `findCharge` is read-after-write consistent: a charge the PSP made is found by the next lookup (Stripe's
   * list). When false (a search index that may lag), "not found" proves nothing was charged only after the PSP's
   * not-found settle time (`PSP_NOT_FOUND_SETTLE_S`).
   */
  readonly lookupConsistent: boolean;
  charge(key: string, params: ChargeParams, timeoutMs: number, origin?: PspOrigin): Promise<PspReply>;
  /** `bodyVersion`: the payment's stamped body version (absent: 1), as for its charge. */
  refund(
    key: string,
    charge: string,
    reference: string,
    timeoutMs: number,
    origin?: PspOrigin,
    bodyVersion?: number,
  ): Promise<PspReply>;
  /** Reads a charge the PSP accepted but had not finished by its id (consistent), as it is now. */
  readCharge(id: string, timeoutMs: number, origin?: PspOrigin): Promise<PspReply>;
  /**
   * Looks a charge up by our reference, every page of it, for a saved error or a forgotten key. `lookup` says when
   * the charge can have been sent (our clock), for a PSP whose consistent lookup lists by creation time (Stripe),
   * where a lookup that could not finish stopped, and the gate each of its requests passes (the PSP budget).
   */
  findCharge(
    reference: string,
    timeoutMs: number,
    origin?: PspOrigin,
    lookup?: ChargeLookup,
  ): Promise<PspReply>;
  /** Looks a charge's refunds up, for a refund whose key the PSP may have forgotten. */
  findRefund(charge: string, timeoutMs: number, origin?: PspOrigin): Promise<PspReply>;
  /**
   * Reads a refund by its id (consistent), for a refund the PSP accepted but had not finished. `charge` is the charge
   * it undoes, for a PSP that can only list a charge's refunds.
   */
  readRefund(refundId: string, timeoutMs: number, origin?: PspOrigin, charge?: string): Promise<PspReply>;
}

/** When a charge can have been sent, by our clock: a window a lookup lists PaymentIntents in. */
export interface AttemptWindow {
  fromMs: number;
  toMs: number;
}

/**
 * Where an unfinished list stopped, so that the next lookup goes on from there instead of starting again: the
 * window it was listing, the last object it read (`starting_after`), and the ids of intents carrying our
 * reference found on the pages already read (a decline found there still counts when the list ends).
 */
export interface LookupCursor {
  fromMs: number;
  toMs: number;
  after: string;
  matched: string[];
}

/** What a lookup's request is, for the budget: a search (its own, lower limit at Stripe) or a read. */
export type LookupRequest = "search" | "list" | "retrieve";

/**
 * Asked before each request of a lookup: resolves undefined when the request may go now (its budget slot has
 * come), or the reply that ends the lookup instead (no slot in time: rate-limited by the budget).
 */
export type PspGate = (request: LookupRequest) => Promise<PspReply | undefined>;

/** How one lookup of a charge runs; every part is optional and an adapter uses what its PSP needs. */
export interface ChargeLookup {
  /** When the charge can have been sent; without any, the adapter's own bounded default. */
  windows?: AttemptWindow[];
  /** Where the last lookup of this reference stopped unfinished. */
  cursor?: LookupCursor;
  /** Told where the list stands when the lookup ends unfinished (a cursor), or that it finished (undefined). */
  progress?: (cursor: LookupCursor | undefined) => void;
  /** Passed before every request; without it, requests go at once. */
  gate?: PspGate;
}
