/** A uniform draw in [0, 1). */
export type Random = () => number;

/**
 * Creates mulberry32, a small seeded generator: the same seed gives the same draws, so a run of faults by
 * rate or by distribution can be replayed exactly, which Math.random cannot promise.
 */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
