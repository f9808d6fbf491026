/**
 * The arrival times (ms from the start) of a Poisson process whose rate goes linearly from `fromPerS` to
 * `toPerS` over `durationS`: open loop, fixed in advance, so no answer can hold the next arrival back.
 */
export function arrivalTimes(
  fromPerS: number,
  toPerS: number,
  durationS: number,
  random: () => number,
): number[] {
  const out: number[] = [];
  // Each arrival is one unit of the integrated rate Λ(t) = a t + b t² / 2 further on (time change of a Poisson process).
  const a = fromPerS;
  const b = (toPerS - fromPerS) / durationS;
  const total = a * durationS + (b * durationS * durationS) / 2;
  const gap = () => -Math.log(1 - random());
  let lambda = gap();
  while (lambda < total) {
    const t = b === 0 ? lambda / a : (-a + Math.sqrt(a * a + 2 * b * lambda)) / b;
    out.push(t * 1000);
    lambda += gap();
  }
  return out;
}

/** The arrival rate at second `t` of the run (for the progress line). */
export function rateAt(fromPerS: number, toPerS: number, durationS: number, t: number): number {
  return fromPerS + ((toPerS - fromPerS) * Math.min(t, durationS)) / durationS;
}
