import { performance } from "node:perf_hooks";
import type { RateLimits } from "./options";

/** Admits or refuses one request by a sliding one-second window per account and per endpoint. */
export interface RateLimiter {
  /** `at` is when the request reached the PSP on the limiter's time line (its own now() unless given). */
  admit(account: string, endpoint: string, at?: number): boolean;
}

const WINDOW_MS = 1000;
// Requests may be counted a little out of order (see sentAtOf); history this old can no longer share a window.
const KEEP_MS = 2 * WINDOW_MS;

/** Inserts t into sorted hits, after any equal ones. */
function insertSorted(hits: number[], t: number): void {
  let i = hits.length;
  while (i > 0 && (hits[i - 1] as number) > t) i--;
  hits.splice(i, 0, t);
}

/** Whether one more hit at t keeps every one-second window (x − 1 s, x] that contains t within the limit. */
function fits(hits: number[], t: number, limit: number): boolean {
  const near = hits.filter((h) => h > t - WINDOW_MS && h < t + WINDOW_MS);
  insertSorted(near, t);
  for (let end = 0, start = 0; end < near.length; end++) {
    while ((near[start] as number) <= (near[end] as number) - WINDOW_MS) start++;
    if ((near[end] as number) >= t && end - start + 1 > limit) return false;
  }
  return true;
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
    admit(account, endpoint, at) {
      const current = now();
      const t = at === undefined ? current : Math.min(at, current);
      const perAccount = hitsFor(`a\u0000${account}`);
      const perEndpoint = hitsFor(`e\u0000${account}\u0000${endpoint}`);
      for (const hits of [perAccount, perEndpoint])
        while (hits.length > 0 && (hits[0] as number) <= current - KEEP_MS) hits.shift();
      if (!fits(perAccount, t, limits.perAccount)) return false;
      if (!fits(perEndpoint, t, limits.perEndpoint)) return false;
      // Refused requests are not recorded: they did not run, and Stripe does not count them either.
      insertSorted(perAccount, t);
      insertSorted(perEndpoint, t);
      return true;
    },
  };
}

/** The header in which a local sender says when its request left it (epoch ms); see sentAtOf. */
export const SENT_AT_HEADER = "eo-sent-at";

/**
 * When the request left its sender, on the limiter's performance.now() time line, if it says so and the claim
 * is plausible (in the last 5 s). A remote PSP counts a request when it arrives, a network's latency after it
 * was sent; locally the fake PSP shares its event loop with the handlers (and two cores with everything), so a
 * busy moment delays the reading of requests sent a second apart until they are read together and counted in
 * one second. Counting at the send moment is what a PSP across a network sees; requests without it (scripts,
 * tests) are counted when read.
 */
export function sentAtOf(header: string | string[] | undefined, nowMs = Date.now()): number | undefined {
  const sent = Number(Array.isArray(header) ? header[0] : header);
  if (!Number.isFinite(sent) || sent > nowMs || sent < nowMs - 5_000) return undefined;
  return performance.now() - (nowMs - sent);
}
