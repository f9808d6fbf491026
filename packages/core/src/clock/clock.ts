import { sharedState } from "../shared-state/shared-state";

/**
 * The one clock every component reads. In AWS the offset is always zero; the local stack moves it
 * forward (`POST /_local/clock`) so that key windows, deadlines and the PSP's 24 h window can be
 * crossed in a test without waiting.
 */
export interface Clock {
  /** Milliseconds since the epoch, as this clock sees them. */
  now(): number;
}

const offset = () => sharedState().clockOffset;

/** The process-wide clock: wall time plus the local offset, shared by both local Regions' runtimes. */
export const clock: Clock = {
  now: () => Date.now() + Number(Atomics.load(offset(), 0)),
};

/** Moves the shared clock forward; the local stack's `/_local/clock` is the only caller outside tests. */
export function advanceClock(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError("the clock only moves forward");
  Atomics.add(offset(), 0, BigInt(Math.round(ms)));
  return clock.now();
}

/** Sets the offset back to zero, for test teardown. */
export function resetClock(): void {
  Atomics.store(offset(), 0, 0n);
}

/** A clock whose time a test sets by hand. */
export function manualClock(startMs = Date.now()): Clock & { advance(ms: number): void } {
  let t = startMs;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
  };
}
