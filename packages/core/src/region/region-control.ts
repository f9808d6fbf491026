import type { RegionRole } from "../config/switches";

/**
 * Which Region takes writes, relays, and runs the resolver and sweeps: data that the failover script changes,
 * never a deployment. Each Region keeps its own copy, so that it can be read there while the other is down;
 * the epoch grows with every change, and a copy with a lower epoch than another is stale.
 */
export interface RegionControl {
  active: RegionRole;
  epoch: number;
  updated_at: number;
  /** Who changed it and why, for the on-call engineer reading it at 3 a.m. */
  reason: string;
}

/** The port to one Region's copy of the control record. */
export interface RegionControlStore {
  /** The Region's copy, read strongly consistently; undefined when nobody has written one. */
  read(): Promise<RegionControl | undefined>;
  /** Writes `next` if the copy's epoch is still below it (a fence never moves backwards); false if not. */
  write(next: RegionControl): Promise<boolean>;
}

/** The control a fresh deployment starts with: the primary is active, epoch 1. */
export function initialControl(now: number): RegionControl {
  return { active: "primary", epoch: 1, updated_at: now, reason: "initial deployment" };
}
