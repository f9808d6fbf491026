import { AsyncLocalStorage } from "node:async_hooks";
import type { PaymentRow } from "../ledger/ledger-items";

/**
 * What the claim store must know about the request it is claiming for. Powertools calls the
 * persistence layer with the payload only, so the owner token, the lease and "has a side effect
 * started" travel beside it in async-local storage (one Lambda instance may serve many requests
 * locally, and module state would mix them).
 */
export interface ClaimContext {
  owner: string;
  /** The in-progress lease: the request's own deadline (arrival stamp + deadline), never Lambda's time. */
  leaseUntil: number;
  paymentId: string;
  /** Set once the PSP may have been called: from then on an error stores a pointer instead of deleting. */
  sideEffectStarted: boolean;
  /** Whether the answer came from an earlier attempt (a replay). */
  replayed: boolean;
  /**
   * Reads the durable record before a takeover (Part 3, safeguard 2): the dead owner may have got
   * further than its claim says, and the work then starts from what the ledger holds.
   */
  beforeTakeover?: () => Promise<void>;
  /**
   * Asks the durable guard about a key whose expired record was made for another request: it throws
   * the refusal (VOID: 409, another fingerprint: 422) so that nothing is claimed.
   */
  judgeByGuard?: () => Promise<void>;
  /** The ledger row read before a takeover, when there is one. */
  durableRow?: PaymentRow;
}

const storage = new AsyncLocalStorage<ClaimContext>();

/** Runs `fn` with a claim context. */
export function withClaimContext<T>(ctx: ClaimContext, fn: () => Promise<T>): Promise<T> {
  return storage.run(ctx, fn);
}

/** The current request's claim context; the claim store refuses to work without one. */
export function claimContext(): ClaimContext {
  const ctx = storage.getStore();
  if (!ctx) throw new Error("the claim store was called outside withClaimContext");
  return ctx;
}
