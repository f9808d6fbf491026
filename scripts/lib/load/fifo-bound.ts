/** A span of the run (ms from the first planned tap) in which the PSP serves nobody, such as an outage. */
export interface Blocked {
  fromMs: number;
  toMs: number;
}

/**
 * The FIFO bound of a run: the least possible worst wait (ms) from a tap to its PSP service, when every buyer is
 * served in tap order at most `ratePerS` a second and nobody is served inside a blocked span.
 */
export function fifoBoundMs(
  tapsMs: readonly number[],
  ratePerS: number,
  blocked: readonly Blocked[] = [],
): number {
  if (!(ratePerS > 0)) throw new RangeError(`the budget must be a positive rate (got ${ratePerS})`);
  const gapMs = 1000 / ratePerS;
  const spans = [...blocked].sort((a, b) => a.fromMs - b.fromMs);
  let previous = Number.NEGATIVE_INFINITY;
  let worst = 0;
  for (const tap of [...tapsMs].sort((a, b) => a - b)) {
    const service = outsideBlocked(Math.max(tap, previous + gapMs), spans);
    worst = Math.max(worst, service - tap);
    previous = service;
  }
  return worst;
}

// Spans are sorted, so one pass moves a service past every span it lands in (touching spans included).
function outsideBlocked(at: number, spans: readonly Blocked[]): number {
  let t = at;
  for (const s of spans) if (t >= s.fromMs && t < s.toMs) t = s.toMs;
  return t;
}
