import { unsafeGuards } from "../chaos/chaos-settings";

/** What `npm run sim` was asked to do. */
export interface SimSettings {
  seed: number;
  /** Schedules to play (default: as many as `forMinutes` allows, else 100). */
  runs: number;
  forMinutes?: number;
  /** 1, 2, or "mixed" (the default): half the indexes one Region, half both Regions with a failover. */
  regions: 1 | 2 | "mixed";
  /** Which two-Region schedules: the classic nemesis, what the real world adds, or mixed (the default: half each). */
  nemesis: "classic" | "real-world" | "mixed";
  parallel: number;
  unsafe: string[];
  outDir: string;
  /** Plays these indexes of the seed again, in order in one process, printing each history and hash. */
  replayIndexes: number[];
  /** Plays the schedules these files hold (a violation, its shrinking, a kept regression), each in the world it names. */
  replayFiles: string[];
  /** Plays each replay file with the guard it names (its `guard` field) taken away in its world alone. */
  unsafeOwnGuard: boolean;
  shrink: boolean;
  /** A long run's mode: play on past a violation (each is written and listed; none is shrunk). */
  keepGoing: boolean;
}

export const SIM_USAGE = `usage: npm run sim -- [--seed <n>] [--runs <n>] [--for <minutes>] [--regions 1|2|mixed]
                      [--nemesis classic|real-world|mixed] [--parallel <processes>] [--unsafe <guard>]... [--out <dir>] [--replay-index <i>]
                      [--replay-file <file>] [--unsafe-own-guard] [--no-shrink] [--keep-going]
  --seed          the run's seed (default: the time); schedule i of a seed is always the same one
  --runs          schedules to play (default 100; with --for, no limit but the time)
  --for           stop starting schedules after this many minutes
  --regions       1, 2 (a failover in every schedule) or mixed (default: half of each)
  --nemesis       the two-Region schedules' faults: classic, real-world (adds stalled replication with a refund
                  in flight, lagging PSP lookups after a failover, throttled stream reads) or mixed (default)
  --parallel      processes side by side (default 2, one per core)
  --unsafe        take a guard away to see the checker catch it: ${Object.keys(unsafeGuards()).join(", ")}
  --out           where violations and summary.json go (default sim-report)
  --replay-index  play one schedule of the seed again, byte for byte, and print its history; repeat it to play
                  several in order in one process (each history is the one it has alone)
  --replay-file   play the schedule a file holds (a violation, its shrinking, a kept regression), in the world
                  it names (seed 0, index 0 when it names none); repeat it to play several
  --unsafe-own-guard  with --replay-file: play each file with the guard it names (its "guard") taken away, in its
                  own world only; exit 0 when every file naming a guard was caught, 1 when one was not
  --keep-going    play on past a violation: each is written to --out with its replay command, none is shrunk
exit: 0 no violation, 1 a violation (its replay command is printed), 2 usage`;

export class SimUsageError extends Error {}

const int = (flag: string, v: string | undefined, min: number): number => {
  const n = Number(v);
  if (v === undefined || !Number.isInteger(n) || n < min)
    throw new SimUsageError(`${flag} needs an integer ≥ ${min}`);
  return n;
};

/** Parses the command line strictly: an unknown flag or a bad number is a usage error, never a default. */
export function simSettings(argv: string[]): SimSettings {
  const s: SimSettings = {
    seed: Date.now() % 2 ** 31,
    runs: 100,
    regions: "mixed",
    nemesis: "mixed",
    parallel: 2,
    unsafe: [],
    outDir: "sim-report",
    shrink: true,
    keepGoing: false,
    replayFiles: [],
    replayIndexes: [],
    unsafeOwnGuard: false,
  };
  let runsGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    const v = argv[i + 1];
    if (flag === "--no-shrink" || flag === "--keep-going" || flag === "--unsafe-own-guard") {
      if (flag === "--no-shrink") s.shrink = false;
      else if (flag === "--keep-going") s.keepGoing = true;
      else s.unsafeOwnGuard = true;
      continue;
    }
    if (flag === "--runs") runsGiven = true;
    apply(s, flag, v);
    i++;
  }
  if (s.forMinutes !== undefined && !runsGiven) s.runs = Number.MAX_SAFE_INTEGER;
  if (s.unsafeOwnGuard && (s.replayFiles.length === 0 || s.unsafe.length > 0))
    throw new SimUsageError(
      "--unsafe-own-guard takes the guards the --replay-file files name, and no --unsafe",
    );
  return s;
}

/** Sets one flag that takes a value. */
function apply(s: SimSettings, flag: string, v: string | undefined): void {
  if (flag === "--seed") s.seed = int(flag, v, 0);
  else if (flag === "--runs") s.runs = int(flag, v, 1);
  else if (flag === "--for") s.forMinutes = positive(flag, v);
  else if (flag === "--parallel") s.parallel = int(flag, v, 1);
  else if (flag === "--replay-index") s.replayIndexes.push(int(flag, v, 0));
  else if (flag === "--out") s.outDir = needed(flag, v);
  else if (flag === "--replay-file") s.replayFiles.push(needed(flag, v));
  else if (flag === "--regions") s.regions = regionsOf(v);
  else if (flag === "--nemesis") s.nemesis = nemesisOf(v);
  else if (flag === "--unsafe") s.unsafe.push(guardOf(needed(flag, v)));
  else throw new SimUsageError(`unknown argument ${flag}`);
}

function guardOf(name: string): string {
  if (!(name in unsafeGuards()))
    throw new SimUsageError(`--unsafe ${name}: known guards are ${Object.keys(unsafeGuards()).join(", ")}`);
  return name;
}

/**
 * How many Regions schedule `index` of a run plays. Mixed: pairs of indexes alternate (0 and 1 one Region, 2 and 3
 * both), so each worker of a run, taking every other index, plays as many of each kind.
 */
export function regionsAt(regions: SimSettings["regions"], index: number): 1 | 2 {
  if (regions !== "mixed") return regions;
  return Math.floor(index / 2) % 2 === 0 ? 1 : 2;
}

/** What schedule `index` of a run plays: how many Regions, and whether its faults are the real world's. */
export function kindAt(s: Pick<SimSettings, "regions" | "nemesis">, index: number): ScheduleKind {
  const regions = regionsAt(s.regions, index);
  if (regions === 1 || s.nemesis === "classic") return { regions, realWorld: false };
  if (s.nemesis === "real-world") return { regions, realWorld: true };
  // Mixed: of each worker's two-Region schedules, every other pair plays the real world's faults.
  const twoRegionPair = s.regions === "mixed" ? Math.floor(index / 4) : Math.floor(index / 2);
  return { regions, realWorld: twoRegionPair % 2 === 1 };
}

/** How many Regions a schedule plays, and whether with the real world's faults. */
export interface ScheduleKind {
  regions: 1 | 2;
  realWorld: boolean;
}

/** The name a summary counts a kind by. */
export function kindName(k: ScheduleKind): string {
  return k.regions === 1 ? "one-Region" : k.realWorld ? "two-Region real-world" : "two-Region classic";
}

function nemesisOf(v: string | undefined): SimSettings["nemesis"] {
  if (v === "classic" || v === "real-world" || v === "mixed") return v;
  throw new SimUsageError("--nemesis is classic, real-world or mixed");
}

function regionsOf(v: string | undefined): SimSettings["regions"] {
  if (v === "1") return 1;
  if (v === "2") return 2;
  if (v === "mixed") return "mixed";
  throw new SimUsageError("--regions is 1, 2 or mixed");
}

function positive(flag: string, v: string | undefined): number {
  const n = Number(v);
  if (v === undefined || !Number.isFinite(n) || n <= 0)
    throw new SimUsageError(`${flag} needs a positive number`);
  return n;
}

function needed(flag: string, v: string | undefined): string {
  if (v === undefined || v.startsWith("--")) throw new SimUsageError(`${flag} needs a value`);
  return v;
}
