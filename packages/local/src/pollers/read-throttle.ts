import { takeFault } from "@eo/core";

/**
 * The `stream_read_throttle_ms` fault: GetRecords answers `LimitExceededException` for that long, as DynamoDB
 * Streams does when a shard's readers pass five reads a second (a second reader beside the mapping, a backfill).
 * Lambda's mapping then backs off and reads again; nothing is lost, the events arrive late. The window starts at
 * the first read that meets the armed fault and runs on monotonic time, so moving the test clock neither ends it
 * nor extends it. One window per process: locally, the Region whose mapping reads first; a stack's stop ends it
 * (resetReadThrottle), or a window left open would throttle the next stack's first reads (the simulation's next
 * schedule starts its monotonic clock again: seed 882501's schedule 142 played differently after schedule 22).
 */
let throttledUntil = Number.NEGATIVE_INFINITY;

/** The throttling error for a read made now, or undefined when reads are not throttled. */
export function readThrottled(): Error | undefined {
  const now = performance.now();
  if (now >= throttledUntil) {
    const lengthMs = takeFault("stream_read_throttle_ms");
    if (lengthMs === undefined || lengthMs <= 0) return undefined;
    throttledUntil = now + lengthMs;
  }
  const err = new Error("Rate exceeded for shard (the stream_read_throttle_ms fault)");
  err.name = "LimitExceededException";
  return err;
}

/** Ends a throttle window left open, for a stack that stops (a fault belongs to the stack it was armed on). */
export function resetReadThrottle(): void {
  throttledUntil = Number.NEGATIVE_INFINITY;
}
