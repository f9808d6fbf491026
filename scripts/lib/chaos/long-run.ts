import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { portsOfZero, type StartedStack, spawnStack } from "../load/stack-process";
import {
  scheduleArbitrary,
  stalledReplicationScheduleArbitrary,
  twoRegionScheduleArbitrary,
} from "./arbitraries";
import { ChaosApi } from "./chaos-api";
import { type ChaosSettings, switchesOf } from "./chaos-settings";
import { chaosEnv } from "./chaos-stack";
import type { RunRecord } from "./history";
import { realWorldScheduleArbitrary } from "./real-world-arbitraries";
import { runOne } from "./run-one";
import type { ClientSwitches, Schedule } from "./schedule";

/** What a long run came to, for the summary and summary.json. */
export interface ChaosSummary {
  seed: number;
  regions: 1 | 2;
  runs: number;
  parallel: number;
  unsafe: string[];
  seconds: number;
  runsPerMinute: number;
  faultsFired: Record<string, number>;
  violations: Array<{ index: number; file: string; checks: string[] }>;
  /** The signal that stopped the run before its schedules or its time were used up, if one did. */
  stoppedBy?: string;
}

/**
 * Starts one chaos stack (its own process group, ports of 0) with the guards the settings take away: the primary
 * Region alone, or both Regions with their replication for the schedules that fail one.
 */
export async function startChaosStack(
  env: Record<string, string>,
  log: (l: string) => void,
  regions: 1 | 2 = 1,
): Promise<StartedStack> {
  return spawnStack(
    (readyFile) => ({
      ...process.env,
      ...chaosEnv(),
      ...portsOfZero(readyFile),
      RESOLVER_EVERY_MS: "0",
      SWEEPS_EVERY_MS: "0",
      ...(regions === 1 ? { LOCAL_STANDBY: "off" } : {}),
      ...env,
    }),
    log,
  );
}

/** The schedules of a run, in order: schedule i of a seed (and a number of Regions) is always the same one. */
export function schedulesOf(
  seed: number,
  runs: number,
  regions: 1 | 2 = 1,
  nemesis: "classic" | "stall" | "real-world" = "classic",
): Schedule[] {
  const twoRegions =
    nemesis === "real-world"
      ? realWorldScheduleArbitrary
      : nemesis === "stall"
        ? stalledReplicationScheduleArbitrary
        : twoRegionScheduleArbitrary;
  return fc.sample(regions === 2 ? twoRegions : scheduleArbitrary, { seed, numRuns: runs });
}

/**
 * Plays `runs` schedules over `parallel` stacks, each stack taking the next schedule when it is free; prints a
 * progress line as runs finish and writes every violating run to the report folder.
 */
export async function longRun(s: ChaosSettings, log: (l: string) => void): Promise<ChaosSummary> {
  const { env, client } = switchesOf(s.unsafe);
  mkdirSync(s.outDir, { recursive: true });
  const where = s.regions === 2 ? "both Regions, a failover in every schedule" : "primary Region";
  log(`starting ${s.parallel} local stack(s) (ports of 0, ${where}, short deadlines)...`);
  const stacks = await Promise.all(
    Array.from({ length: s.parallel }, () => startChaosStack(env, log, s.regions)),
  );
  const nemesis = s.realWorld ? "real-world" : s.stallReplication ? "stall" : "classic";
  const schedules = schedulesOf(s.seed, s.runs, s.regions, nemesis);
  const summary: ChaosSummary = {
    seed: s.seed,
    regions: s.regions,
    runs: 0,
    parallel: s.parallel,
    unsafe: s.unsafe,
    seconds: 0,
    runsPerMinute: 0,
    faultsFired: {},
    violations: [],
  };
  const started = Date.now();
  const stopAt = s.forMinutes ? started + s.forMinutes * 60_000 : Number.POSITIVE_INFINITY;
  let next = 0;
  const progress = () => {
    const seconds = (Date.now() - started) / 1000;
    const rate = (summary.runs / seconds) * 60;
    log(
      `  [${String(summary.runs).padStart(String(s.runs).length)}/${s.runs}] ${rate.toFixed(1)} runs/min, ${summary.violations.length} violations, ${Object.values(summary.faultsFired).reduce((a, n) => a + n, 0)} faults fired`,
    );
  };
  // A person who stops a long run still gets its summary: the first Ctrl-C (or TERM) starts no new schedule and
  // lets those in flight finish and the stacks stop; a second one abandons them.
  let stoppedAt = 0;
  const stop = (signal: NodeJS.Signals) => {
    // npm and tsx pass a terminal's Ctrl-C on to this process as well: one press can arrive twice at once.
    if (summary.stoppedBy && Date.now() - stoppedAt < 2_000) return;
    if (summary.stoppedBy) {
      log(`${signal} again: abandoning the schedules in flight`);
      process.exit(130);
    }
    summary.stoppedBy = signal;
    stoppedAt = Date.now();
    next = schedules.length;
    log(
      `${signal}: no new schedules; finishing those in flight, then the summary (${signal} again abandons them)`,
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  let lastLine = 0;
  // A line every 2 s for a short run; a long one would bury its summary, so every 15 s.
  const lineEveryMs = s.runs > 500 || s.forMinutes ? 15_000 : 2_000;
  try {
    await Promise.all(
      stacks.map(async (stack) => {
        const api = new ChaosApi(stack.apiUrl);
        for (let i = next++; i < schedules.length && Date.now() < stopAt; i = next++) {
          const record = await playOne(api, schedules[i] as Schedule, client, s, i);
          summary.runs += 1;
          for (const [k, n] of Object.entries(record.faultsFired))
            summary.faultsFired[k] = (summary.faultsFired[k] ?? 0) + n;
          if (record.violations.length > 0) {
            const file = writeRecord(s.outDir, `violation-${s.seed}-${i}.json`, record);
            summary.violations.push({
              index: i,
              file,
              checks: [...new Set(record.violations.map((v) => v.check))],
            });
            log(
              `  VIOLATION in run ${i}: ${record.violations.map((v) => `${v.check}: ${v.reason}`).join("; ")}`,
            );
            if (summary.violations.length === 1) next = schedules.length; // stop the others at the first one
          }
          if (Date.now() - lastLine > lineEveryMs || summary.runs === s.runs || Date.now() >= stopAt) {
            lastLine = Date.now();
            progress();
          }
        }
      }),
    );
  } finally {
    await Promise.all(stacks.map((st) => st.stop()));
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
  summary.seconds = Math.round((Date.now() - started) / 1000);
  summary.runsPerMinute = Number(((summary.runs / Math.max(1, summary.seconds)) * 60).toFixed(1));
  writeFileSync(join(s.outDir, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}

async function playOne(
  api: ChaosApi,
  schedule: Schedule,
  client: ClientSwitches,
  s: ChaosSettings,
  index: number,
): Promise<RunRecord> {
  const record = await runOne(api, schedule, client, Object.keys(switchesOf(s.unsafe).env));
  return { ...record, seed: s.seed, path: String(index) };
}

/** Writes a run's record where `--replay` can read it; answers the path. */
export function writeRecord(dir: string, name: string, record: RunRecord): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  return file;
}
