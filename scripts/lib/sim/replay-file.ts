import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import type { RunRecord } from "../chaos/history";
import { type ClientSwitches, describeSchedule, needsTwoRegions } from "../chaos/schedule";
import { playInWorld, warmUp } from "./play-in-world";
import { historyLines } from "./sim-report";
import { kindAt, type SimSettings } from "./sim-settings";

/** A schedule file as `--replay-file` reads it: a violation's record, its shrinking, or a kept regression. */
export type ReplayFile = Partial<RunRecord> & { guard?: string };

/** What a file holds. */
export const readReplayFile = (path: string): ReplayFile =>
  JSON.parse(readFileSync(path, "utf8")) as ReplayFile;

/**
 * The index a kept regression (a file naming no seed and index) plays at: one of its own, from its name, so that
 * files played in one process never share a run id (a schedule that repeats an earlier one's payment ids in the same
 * process has been seen to lose a notification: docs/fault-checker.md, "What it does not model").
 */
function indexOfName(path: string): number {
  return Number.parseInt(createHash("sha256").update(basename(path)).digest("hex").slice(0, 4), 16);
}

/** How one replay goes: the client's switches, and what wraps the play of its world (server switches set there). */
export interface ReplayOptions {
  client: ClientSwitches;
  path?: string;
  /** Wraps the world's play alone (not the warm-up): `--unsafe-own-guard` sets the file's guard switch there. */
  around?: <T>(play: () => Promise<T>) => Promise<T>;
  /** Leaves the history out when a violation is what the replay expects. */
  quiet?: boolean;
  /** The seed's index to play, without a file. */
  index?: number;
}

/** Plays one schedule again (an index of the seed, or a file's), prints its history and hash; answers its violations. */
export async function replayOne(
  s: SimSettings,
  o: ReplayOptions,
  log: (line: string) => void,
): Promise<RunRecord["violations"]> {
  const { path } = o;
  const file = path ? readReplayFile(path) : undefined;
  const seed = file ? (file.seed ?? 0) : s.seed;
  const index = file ? Number(file.path ?? indexOfName(path as string)) : (o.index ?? 0);
  const kind = kindAt(s, index);
  const regions = file?.schedule && needsTwoRegions(file.schedule) ? 2 : kind.regions;
  log(
    `\nreplaying schedule ${index} of seed ${seed} (${regions} Region(s))${path ? ` as ${path} holds it` : ""}`,
  );
  await warmUp(regions);
  const play = () =>
    playInWorld({ seed, index, regions, realWorld: kind.realWorld }, file?.schedule, o.client);
  const { record, historyHash } = await (o.around ? o.around(play) : play());
  log(describeSchedule(record.schedule));
  if (!o.quiet && (!path || record.violations.length > 0)) for (const line of historyLines(record)) log(line);
  for (const v of record.violations) log(`  VIOLATION ${v.check}: ${v.reason}`);
  log(`history sha256 ${historyHash}`);
  log(record.violations.length === 0 ? "no violation" : `${record.violations.length} violation(s)`);
  return record.violations;
}
