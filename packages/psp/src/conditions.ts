import { sampleLatencyMs } from "./latency";
import type { PspFaultName } from "./options";
import { createRandom } from "./random";

/** What an outage does to one request: answered 503 at the edge, or run and its reply dropped. */
export type OutageEffect = "refuse" | "drop";

/** The PSP's weather, by fault: outage windows, latency drawn from a distribution, and replies lost by rate. */
export interface Conditions {
  /** What the outage does to this request, or undefined when the PSP is up; a GET is always refused. */
  outage(isPost: boolean): OutageEffect | undefined;
  /** How long this request waits before it is processed, or undefined when no latency is armed. */
  latencyMs(): number | undefined;
  /** Whether this charge or refund, which has just run, loses its reply by `psp_lose_reply_rate`. */
  losesReplyByRate(): boolean;
}

/** What the conditions read: the armed faults, a seed and a monotonic real-time clock. */
export interface ConditionSources {
  takeFault: (name: PspFaultName) => number | undefined;
  peekFault: (name: PspFaultName) => number | undefined;
  seed: number;
  now: () => number;
}

/**
 * Creates the conditions of one PSP. The outage runs on real monotonic time, not the injected clock: moving
 * the test clock by a day must not end or extend it. One seeded generator serves every draw, so a run is
 * replayed exactly by the order of its requests.
 */
export function createConditions(src: ConditionSources): Conditions {
  const random = createRandom(src.seed);
  let outageEndsAt = Number.NEGATIVE_INFINITY;
  let postsInOutage = 0;
  const inOutage = (): boolean => {
    const t = src.now();
    if (t < outageEndsAt) return true;
    // An armed outage starts at the first request that meets it, so it lasts its length whatever the load.
    const lengthMs = src.takeFault("psp_outage_ms");
    if (lengthMs === undefined || lengthMs <= 0) return false;
    outageEndsAt = t + lengthMs;
    postsInOutage = 0;
    return true;
  };
  return {
    outage(isPost) {
      if (!inOutage()) return undefined;
      if (!isPost) return "refuse";
      // Alternating keeps both failure kinds in every window, reproducibly: refused first, then dropped.
      postsInOutage += 1;
      return postsInOutage % 2 === 1 ? "refuse" : "drop";
    },
    latencyMs() {
      const p50 = src.takeFault("psp_latency_p50_ms");
      if (p50 === undefined) return undefined;
      return sampleLatencyMs(p50, src.peekFault("psp_latency_p99_ms"), random);
    },
    losesReplyByRate() {
      const rate = src.takeFault("psp_lose_reply_rate");
      return rate !== undefined && random() < rate;
    },
  };
}
