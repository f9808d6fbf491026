/**
 * The time a simulated service reads. The models never read `Date.now()` themselves: the world's scheduler
 * hands them this port, so a run's history depends only on its seed.
 */
export interface SimClock {
  /** Milliseconds since the epoch, in virtual time. */
  now(): number;
}
