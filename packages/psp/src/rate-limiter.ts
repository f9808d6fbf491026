import { performance } from "node:perf_hooks";
import type { RateLimits } from "./options";

/** Admits or refuses one request by a sliding one-second window per account and per endpoint. */
export interface RateLimiter {
  admit(account: string, endpoint: string): boolean;
}

const WINDOW_MS = 1000;

function recentCount(hits: number[], now: number): number {
  // Timestamps are appended in order from a monotonic source, so stale ones are all at the front.
  while (hits.length > 0 && (hits[0] as number) <= now - WINDOW_MS) hits.shift();
  return hits.length;
}

/**
 * Creates a limiter on a monotonic real-time source, never the injected clock: moving the test clock
 * forward by a day must not empty or fill anyone's window.
 */
export function createRateLimiter(
  limits: RateLimits,
  now: () => number = () => performance.now(),
): RateLimiter {
  const windows = new Map<string, number[]>();
  const hitsFor = (key: string): number[] => {
    let hits = windows.get(key);
    if (!hits) {
      hits = [];
      windows.set(key, hits);
    }
    return hits;
  };
  return {
    admit(account, endpoint) {
      const t = now();
      const perAccount = hitsFor(`a\u0000${account}`);
      const perEndpoint = hitsFor(`e\u0000${account}\u0000${endpoint}`);
      if (recentCount(perAccount, t) >= limits.perAccount) return false;
      if (recentCount(perEndpoint, t) >= limits.perEndpoint) return false;
      // Refused requests are not recorded: they did not run, and Stripe does not count them either.
      perAccount.push(t);
      perEndpoint.push(t);
      return true;
    },
  };
}
