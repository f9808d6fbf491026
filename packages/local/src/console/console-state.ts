import { clock, type RegionRole } from "@eo/core";
import type { FakePsp, PspStats } from "@eo/psp";
import type { RegionFlags } from "../region/region-flags";
import { regionsView } from "../region/regions-route";
import type { RegionRuntime } from "../region/start-region";
import type { Replicator } from "../replication/start-replicator";
import { NotKeptByExternalPsp } from "../stack/external-psp";
import type { Emulators } from "../stack/start-emulators";
import { type AlarmView, alarmEvaluator } from "./alarm-states";
import { type PspView, pspRates } from "./psp-rates";
import { regionDisagreements } from "./region-agreement";
import { readRegionSnapshot } from "./region-snapshot";
import { countersOf, type ReadingInput, type RegionFacts } from "./signal-readings";
import { WindowedCounters } from "./windowed-counters";

/** What the console reads from the running stack. */
export interface ConsoleSources {
  emulators: Emulators;
  flags: RegionFlags;
  replicator: Replicator | undefined;
  psp: FakePsp;
  /** The Regions running (filled in once they started). */
  regions: RegionRuntime[];
}

/** The console's whole state at one poll (`GET /_local/console/state`). */
export interface ConsoleState {
  at: string;
  regions: Awaited<ReturnType<typeof regionsView>>;
  warnings: string[];
  per_region: Partial<Record<RegionRole, RegionFacts & { acts_as: string }>>;
  psp: PspView;
  alarms: AlarmView[];
}

/**
 * Builds the function that gathers the console's state: the Regions' view, each running Region's tables, queues
 * and API answers, the PSP's rates, and which alarms would fire. It keeps the readings between polls (rates and
 * sums over each alarm's period), as CloudWatch keeps datapoints.
 */
export function consoleState(src: ConsoleSources): () => Promise<ConsoleState> {
  const counters = new WindowedCounters();
  // A real PSP (npm start with PSP_URL) keeps no counters we can read: the console shows no PSP traffic then.
  const rates = pspRates(() => statsOrNone(src.psp));
  const alarms = alarmEvaluator(process.env.CLAIM_MODE);
  return async () => {
    const wallMs = Date.now();
    const regions = await regionsView(src);
    const running = src.regions.map((r) => r.role);
    const snapshots = await Promise.all(
      running.map((r) => readRegionSnapshot(src.emulators, r, clock.now())),
    );
    const psp = rates(wallMs);
    const per_region: ConsoleState["per_region"] = {};
    const inputs: ReadingInput[] = [];
    const values: Record<string, number> = {};
    running.forEach((role, i) => {
      const view = regions.regions[role];
      const snapshot = snapshots[i];
      const answers = src.regions[i]?.answers.snapshot();
      if (!view || !snapshot || !answers) return;
      const facts = { up: view.up, reaches_authority: view.reaches_authority, snapshot, answers };
      per_region[role] = { ...facts, acts_as: view.acts_as };
      Object.assign(values, countersOf(role, facts, psp.totals.rate_limited));
      inputs.push({ role, facts, replication: regions.replication, counters });
    });
    counters.record(wallMs, values);
    return {
      at: new Date(wallMs).toISOString(),
      regions,
      warnings: regionDisagreements(regions),
      per_region,
      psp,
      alarms: alarms(wallMs, inputs),
    };
  };
}

function statsOrNone(psp: FakePsp): PspStats {
  try {
    return psp.stats();
  } catch (err) {
    if (!(err instanceof NotKeptByExternalPsp)) throw err;
    const origins = { live: 0, resolver: 0, other: 0 };
    return {
      requests: 0,
      by_endpoint: {},
      by_origin: origins,
      by_status: {},
      rate_limited: 0,
      by_origin_rate_limited: { ...origins },
      outage_refused: 0,
      replies_dropped: 0,
      held: 0,
    };
  }
}
