import type { Random } from "./random";

/** The standard normal's 99th percentile: a log-normal's p99 is its median times exp(sigma * Z99). */
export const Z99 = 2.326;

// Box-Muller: two uniforms give one standard normal; 1 - u keeps the logarithm away from zero.
function standardNormal(random: Random): number {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * Draws one latency from the log-normal whose median is `p50Ms` and 99th percentile `p99Ms`; without a p99
 * above the p50 (none armed, or a flat one) the latency is the p50 itself.
 */
export function sampleLatencyMs(p50Ms: number, p99Ms: number | undefined, random: Random): number {
  if (p50Ms <= 0) return 0;
  if (p99Ms === undefined || p99Ms <= p50Ms) return p50Ms;
  const sigma = Math.log(p99Ms / p50Ms) / Z99;
  return Math.exp(Math.log(p50Ms) + sigma * standardNormal(random));
}
