/** The full-jitter wait before retry number `retry` (1-based): random in [0, min(cap, base * 2^(retry-1))). */
export function jitteredBackoffMs(
  retry: number,
  backoff: { baseMs: number; capMs: number },
  random: () => number,
): number {
  const ceiling = Math.min(backoff.capMs, backoff.baseMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * A `Retry-After` header in milliseconds from now: delay-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Anything else is ignored, so a malformed header never stalls a retry.
 */
export function retryAfterMs(header: string | null | undefined, nowMs: number): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
