import type { Operation } from "../client-events";
import type { Runtime } from "../client-options";
import { jitteredBackoffMs } from "./backoff";
import type { Again } from "./transient";

/** What one attempt decided: a final result, or a retry with the same key. */
export type Verdict<R> = { final: R } | { again: Again };

/**
 * Runs attempts until one is final or the next would start past the horizon. Each wait is the jittered
 * backoff, never shorter than the server's Retry-After; the backoff grows with failures only, since a
 * 202 poll is the server asking to be asked again, not a sign of trouble.
 */
export async function retryUntilHorizon<R>(
  rt: Runtime,
  op: Operation,
  attempt: (n: number) => Promise<Verdict<R>>,
  giveUp: (last: Again, attempts: number) => R,
): Promise<R> {
  const started = rt.now();
  let failures = 0;
  for (let n = 1; ; n++) {
    const verdict = await attempt(n);
    if ("final" in verdict) return verdict.final;
    const { again } = verdict;
    if (!again.poll) failures++;
    const waitMs =
      again.booked && again.floorMs !== undefined
        ? again.floorMs
        : Math.max(again.floorMs ?? 0, jitteredBackoffMs(Math.max(1, failures), rt.backoff, rt.random));
    const elapsed = rt.now() - started;
    if (elapsed + waitMs >= rt.horizonMs) {
      rt.emit({ type: "horizon", op, attempts: n, elapsed_ms: elapsed, why: again.why });
      return giveUp(again, n);
    }
    rt.emit({ type: "retry", op, attempt: n, why: again.why, wait_ms: waitMs });
    await rt.sleep(waitMs);
  }
}
