import type { Observation } from "../../../scripts/lib/chaos/observe";

/** A quiet stack's observation with nothing in it, for the checker's unit traces; `over` sets what a trace needs. */
export function quietObservation(over: Partial<Observation> = {}): Observation {
  return {
    charges: [],
    payments: new Map(),
    merchants: [],
    merchantsByRegion: {},
    screens: [],
    emails: [],
    backlog: 0,
    queues: {},
    outboxLeft: 0,
    journal: new Map(),
    ...over,
  };
}
