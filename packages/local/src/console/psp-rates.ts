import type { PspStats } from "@eo/psp";

/** The PSP's traffic as the console shows it: calls per second by origin over the last window, and totals. */
export interface PspView {
  window_s: number;
  calls_per_s: { live: number; resolver: number; other: number };
  rate_limited_per_s: number;
  totals: { requests: number; rate_limited: number; replies_dropped: number; outage_refused: number };
}

interface Sample {
  atMs: number;
  stats: PspStats;
}

/**
 * Turns the PSP's cumulative counters into rates, as CloudWatch's per-period sums do: each reading is kept for
 * `windowMs`, and the rate is the difference between now and the oldest reading still in the window.
 */
export function pspRates(read: () => PspStats, windowMs = 10_000): (nowMs: number) => PspView {
  const samples: Sample[] = [];
  return (nowMs) => {
    const stats = read();
    samples.push({ atMs: nowMs, stats });
    while (samples.length > 1 && (samples[0]?.atMs ?? nowMs) < nowMs - windowMs) samples.shift();
    const first = samples[0] ?? { atMs: nowMs, stats };
    const spanS = Math.max(1, (nowMs - first.atMs) / 1000);
    const per = (now: number, then: number) => round((now - then) / spanS);
    return {
      window_s: round(spanS),
      calls_per_s: {
        live: per(stats.by_origin.live, first.stats.by_origin.live),
        resolver: per(stats.by_origin.resolver, first.stats.by_origin.resolver),
        other: per(stats.by_origin.other, first.stats.by_origin.other),
      },
      rate_limited_per_s: per(stats.rate_limited, first.stats.rate_limited),
      totals: {
        requests: stats.requests,
        rate_limited: stats.rate_limited,
        replies_dropped: stats.replies_dropped,
        outage_refused: stats.outage_refused,
      },
    };
  };
}

const round = (n: number) => Math.round(n * 10) / 10;
