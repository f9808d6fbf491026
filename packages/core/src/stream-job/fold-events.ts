import type { JobEvent } from "./job-input";
import { ACCEPTANCE_HORIZON_MS, type JobState, totalKey } from "./job-state";

/** What folding a batch into the state came to. */
export interface Folded {
  state: JobState;
  /** The state keys whose totals changed: the sink writes of this invocation. */
  touched: string[];
  /** Copies rejected as late (event time + horizon at or before the watermark): for a batch recount. */
  late: JobEvent[];
  /** Copies dropped because their id is in the state already. */
  duplicates: JobEvent[];
}

/** How a fold judges lateness and duplicates; the defaults are the design's, the rest are counterfactuals. */
export interface FoldRules {
  horizonMs?: number;
  /** Use the saved watermark as a floor under the live one (rule 3); off only in the counterfactual. */
  floor?: boolean;
  /** Seen ids held outside the state (the counterfactual): consulted and filled instead of `state.seen`. */
  outsideSeen?: Set<string>;
}

/**
 * Folds a batch of events into a copy of the state, exactly once per event id: a copy whose id is in the state is a
 * duplicate, and a copy whose event time + horizon is at or before max(saved floor, live watermark) is late. Each id
 * keeps an event-time timer at its event time + horizon, which fires once the watermark passes it (Part 8).
 */
export function foldEvents(prior: JobState, events: readonly JobEvent[], rules: FoldRules = {}): Folded {
  const horizon = rules.horizonMs ?? ACCEPTANCE_HORIZON_MS;
  const state: JobState = { ...prior, totals: { ...prior.totals }, seen: { ...prior.seen } };
  const seen = rules.outsideSeen;
  const touched = new Set<string>();
  const late: JobEvent[] = [];
  const duplicates: JobEvent[] = [];
  let live = Number.NEGATIVE_INFINITY;
  for (const e of events) {
    const boundary = rules.floor === false ? live : Math.max(state.watermark, live);
    live = Math.max(live, e.eventTime);
    if (e.eventTime + horizon <= boundary) {
      late.push(e);
      continue;
    }
    if (seen ? seen.has(e.eventId) : e.eventId in state.seen) {
      duplicates.push(e);
      continue;
    }
    if (seen) seen.add(e.eventId);
    else state.seen[e.eventId] = e.eventTime + horizon;
    const key = totalKey(e.merchant, e.day);
    state.totals[key] = (state.totals[key] ?? 0) + e.amount;
    touched.add(key);
  }
  state.watermark = Math.max(state.watermark, live);
  for (const [id, timer] of Object.entries(state.seen)) if (timer <= state.watermark) delete state.seen[id];
  state.late += late.length;
  return { state, touched: [...touched], late, duplicates };
}
