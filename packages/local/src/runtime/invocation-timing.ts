import { performance } from "node:perf_hooks";

/** One handler invocation that ended: which function ran it, for how long (ms, fractional), and whether it threw. */
export interface TimedInvocation {
  functionId: string;
  durationMs: number;
  ok: boolean;
}

type Listener = (invocation: TimedInvocation) => void;

// Opt-in: nothing is timed until a listener subscribes (bench:cost bills each invocation's duration as Lambda does).
const listeners = new Set<Listener>();

/** Calls `listener` after every handler invocation of the local runtime ends; returns the unsubscribe. */
export function onInvocationTimed(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** Runs one handler invocation of `functionId` and reports its duration to the listeners, if any. */
export async function timedInvocation<T>(functionId: string, run: () => Promise<T>): Promise<T> {
  if (listeners.size === 0) return run();
  const started = performance.now();
  let ok = false;
  try {
    const result = await run();
    ok = true;
    return result;
  } finally {
    const timed = { functionId, durationMs: performance.now() - started, ok };
    for (const l of listeners) l(timed);
  }
}
