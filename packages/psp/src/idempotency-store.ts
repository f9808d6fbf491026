import type { Clock } from "@eo/core";

/** A result saved under an idempotency key, replayed byte for byte on a repeat. */
export interface SavedResult {
  endpoint: string;
  fingerprint: string;
  status: number;
  body: string;
  savedAtMs: number;
}

/** Saved results per (account, key), forgotten once older than the key window by the injected clock. */
export interface IdempotencyStore {
  lookup(account: string, key: string): SavedResult | undefined;
  save(account: string, key: string, result: Omit<SavedResult, "savedAtMs">): SavedResult;
  /** Marks the key as being worked on; false when another request holds it (Stripe's 409 key in use). */
  claim(account: string, key: string): boolean;
  release(account: string, key: string): void;
}

/** Creates a store whose window is read from `clock`, so a test can step over 24 h without waiting. */
export function createIdempotencyStore(clock: Clock, windowMs: number): IdempotencyStore {
  const saved = new Map<string, SavedResult>();
  const inFlight = new Set<string>();
  const slot = (account: string, key: string): string => `${account}\u0000${key}`;
  return {
    lookup(account, key) {
      const entry = saved.get(slot(account, key));
      if (!entry) return undefined;
      if (clock.now() - entry.savedAtMs < windowMs) return entry;
      // An expired key is new again, as with Stripe; dropping it keeps the map from growing forever.
      saved.delete(slot(account, key));
      return undefined;
    },
    save(account, key, result) {
      const entry = { ...result, savedAtMs: clock.now() };
      saved.set(slot(account, key), entry);
      return entry;
    },
    claim(account, key) {
      if (inFlight.has(slot(account, key))) return false;
      inFlight.add(slot(account, key));
      return true;
    },
    release: (account, key) => void inFlight.delete(slot(account, key)),
  };
}
