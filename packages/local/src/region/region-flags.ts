import type { RegionRole } from "@eo/core";

const SLOT: Record<RegionRole, number> = { primary: 0, standby: 1 };
const PARTITIONED = 2;
const OPERATOR_REACHES = 4;

/**
 * Whether each local Region is up, and whether it is cut off: what `POST /_local/regions/{region}/fail`,
 * `/recover`, `/partition` and `/heal` change. It lives in a SharedArrayBuffer so that the standby's runtime (a
 * worker thread) sees a change at once, as its own.
 */
export class RegionFlags {
  readonly buffer: SharedArrayBuffer;
  private readonly flags: Int32Array;

  constructor(buffer: SharedArrayBuffer = new SharedArrayBuffer(32)) {
    this.buffer = buffer;
    this.flags = new Int32Array(buffer);
  }

  isUp(role: RegionRole): boolean {
    return Atomics.load(this.flags, SLOT[role]) === 0;
  }

  /** Whether the Region runs but cannot reach the authority or the other Region. */
  isPartitioned(role: RegionRole): boolean {
    return Atomics.load(this.flags, PARTITIONED + SLOT[role]) === 1;
  }

  /**
   * Whether a partitioned Region is still reached by an operator's machine (AWS's shape of a partition): its tables
   * answer the failover command, though the Region reaches neither its peer nor the authority.
   */
  operatorReaches(role: RegionRole): boolean {
    return Atomics.load(this.flags, OPERATOR_REACHES + SLOT[role]) === 1;
  }

  /** Whether the Region can reach the authority and the other Region: up and not partitioned. */
  isConnected(role: RegionRole): boolean {
    return this.isUp(role) && !this.isPartitioned(role);
  }

  fail(role: RegionRole): void {
    Atomics.store(this.flags, SLOT[role], 1);
  }

  recover(role: RegionRole): void {
    Atomics.store(this.flags, SLOT[role], 0);
  }

  partition(role: RegionRole, operatorReaches = false): void {
    Atomics.store(this.flags, OPERATOR_REACHES + SLOT[role], operatorReaches ? 1 : 0);
    Atomics.store(this.flags, PARTITIONED + SLOT[role], 1);
  }

  heal(role: RegionRole): void {
    Atomics.store(this.flags, PARTITIONED + SLOT[role], 0);
    Atomics.store(this.flags, OPERATOR_REACHES + SLOT[role], 0);
  }
}
