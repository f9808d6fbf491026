import type { RegionRole } from "../config/switches";

/**
 * Which Region takes writes, relays, and runs the resolver and sweeps: data that the failover script changes,
 * never a deployment. It lives in one authority with a third vote (an MRSC table with a witness in AWS; locally
 * one table that a failed or partitioned Region cannot reach), and both Regions read that same record: a Region's
 * own belief never decides. The epoch grows with every change.
 */
export interface RegionControl {
  active: RegionRole;
  epoch: number;
  updated_at: number;
  /** Who changed it and why, for the on-call engineer reading it at 3 a.m. */
  reason: string;
  /**
   * Wall time (ms) from which `active` may act; absent means at once. A failover names the new Region at once (the
   * old one is fenced by the same write) but lets it act only after the window in which the old Region can still
   * be acting on an older read has passed, so that no moment has two Regions acting.
   */
  active_from?: number;
  /** The Region being drained by a planned failover: until `active_from` it may still relay and deliver events. */
  drains?: RegionRole;
}

/** The port to the Region control: the authority, or (in the counterfactual) a Region's own copy. */
export interface RegionControlStore {
  /**
   * The record, read strongly consistently; undefined when nobody has written one; throws when unreachable, or when
   * `abortSignal` fires first (a request's read is bounded by its deadline).
   */
  read(options?: { abortSignal?: AbortSignal }): Promise<RegionControl | undefined>;
  /** Writes `next` if the record's epoch is still below it (a fence never moves backwards); false if not. */
  write(next: RegionControl): Promise<boolean>;
}

/** The control a fresh deployment starts with: the primary is active, epoch 1. */
export function initialControl(now: number): RegionControl {
  return { active: "primary", epoch: 1, updated_at: now, reason: "initial deployment" };
}

/** Whether `c` lets `role` act at wall time `now` (a clock running up to `marginMs` fast waits that much more). */
export function namesActive(
  c: RegionControl | undefined,
  role: RegionRole,
  now: number,
  marginMs = 0,
): boolean {
  return c?.active === role && now - marginMs >= (c.active_from ?? 0);
}

/** Whether `c` lets `role` finish delivering what it committed: the Region a planned failover drains, until the switch. */
export function namesDraining(c: RegionControl | undefined, role: RegionRole, now: number): boolean {
  return c?.drains === role && now < (c.active_from ?? 0);
}
