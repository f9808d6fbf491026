import type { ItemChange, Role } from "./replication-types";

/** The replicator's dials: its lag, a pause, and which Regions are up. */
export class ReplicationControls {
  paused = false;
  private readonly down = new Set<Role>();

  constructor(
    public lagMs: number,
    private readonly changed: () => void,
  ) {
    checkLag(lagMs);
  }

  /** Sets the lag of every change not yet applied, those already waiting included. */
  setLag(ms: number): void {
    checkLag(ms);
    this.lagMs = ms;
    this.changed();
  }

  /** Stops delivering (or, with false, delivers again); changes keep being read and queued meanwhile. */
  setPaused(paused: boolean): void {
    this.paused = paused;
    this.changed();
  }

  /** Marks a Region down (it ships and receives nothing) or up again (it catches up). */
  setUp(role: Role, up: boolean): void {
    if (up) this.down.delete(role);
    else this.down.add(role);
    this.changed();
  }

  /** True unless the Region was failed. */
  isUp(role: Role): boolean {
    return !this.down.has(role);
  }

  /** True when the change may be delivered now, lag aside. */
  open(change: ItemChange): boolean {
    return !this.paused && this.isUp(change.from) && this.isUp(change.to);
  }
}

function checkLag(ms: number): void {
  if (!Number.isFinite(ms) || ms < 0)
    throw new RangeError(`replication lag must be a number of ms >= 0, not ${ms}`);
}
