/**
 * The state that every local Region's runtime must see as one: the clock's offset and the armed faults.
 * It lives in a SharedArrayBuffer so that the standby Region's handlers (a worker thread with its own
 * environment, as a Lambda in another Region has) read and consume it with the primary's, atomically.
 * In AWS nothing shares or moves it: the offset stays zero and no fault is ever armed.
 */
export interface SharedState {
  buffer: SharedArrayBuffer;
  clockOffset: BigInt64Array;
  faultValues: Float64Array;
  faultCounts: Int32Array;
}

/** How many fault slots the buffer holds; faults.ts names them. */
export const FAULT_SLOTS = 32;

function viewsOf(buffer: SharedArrayBuffer): SharedState {
  return {
    buffer,
    clockOffset: new BigInt64Array(buffer, 0, 1),
    faultValues: new Float64Array(buffer, 8, FAULT_SLOTS),
    faultCounts: new Int32Array(buffer, 8 + 8 * FAULT_SLOTS, FAULT_SLOTS),
  };
}

let state = viewsOf(new SharedArrayBuffer(8 + 12 * FAULT_SLOTS));

/** The state this runtime reads: its own, or the one it adopted. */
export function sharedState(): SharedState {
  return state;
}

/** Makes this runtime read and write another runtime's state (the standby worker adopts the primary's). */
export function adoptSharedState(buffer: SharedArrayBuffer): void {
  state = viewsOf(buffer);
}
