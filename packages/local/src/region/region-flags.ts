import type { RegionRole } from "@eo/core";

const SLOT: Record<RegionRole, number> = { primary: 0, standby: 1 };

/**
 * Whether each local Region is up: what `POST /_local/regions/{region}/fail` and `/recover` change. It lives in
 * a SharedArrayBuffer so that the standby's runtime (a worker thread) sees a failure at once, as its own.
 */
export class RegionFlags {
  readonly buffer: SharedArrayBuffer;
  private readonly down: Int32Array;

  constructor(buffer: SharedArrayBuffer = new SharedArrayBuffer(8)) {
    this.buffer = buffer;
    this.down = new Int32Array(buffer);
  }

  isUp(role: RegionRole): boolean {
    return Atomics.load(this.down, SLOT[role]) === 0;
  }

  fail(role: RegionRole): void {
    Atomics.store(this.down, SLOT[role], 1);
  }

  recover(role: RegionRole): void {
    Atomics.store(this.down, SLOT[role], 0);
  }
}
