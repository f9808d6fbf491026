/**
 * The fault checker on the simulation: `npm run sim -- --seed S --for M`. Plays generated one- and two-Region
 * schedules, each in a world of its own (the whole stack on the models, virtual time, one seeded scheduler), judged
 * by the same checker as `npm run chaos`. Progress, a summary with schedules a minute and faults by kind; a violation
 * prints the one command that replays it byte for byte, then its shrunk schedule. Exit 0 none, 1 a violation, 2 usage.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { switchesOf } from "./lib/chaos/chaos-settings";
import type { RunRecord } from "./lib/chaos/history";
import { type ClientSwitches, describeSchedule, needsTwoRegions } from "./lib/chaos/schedule";
import { playInWorld, useChaosEnv, warmUp } from "./lib/sim/play-in-world";
import { runWorkers } from "./lib/sim/run-workers";
import { historyLines, replayCommand } from "./lib/sim/sim-report";
import { kindAt, SIM_USAGE, type SimSettings, SimUsageError, simSettings } from "./lib/sim/sim-settings";
import { shrinkInWorld } from "./lib/sim/sim-shrink";

const log = (line: string) => console.log(line);

async function replay(s: SimSettings): Promise<number> {
  const { env, client } = switchesOf(s.unsafe);
  useChaosEnv(env);
  if (s.replayFiles.length === 0) return replayOne(s, client);
  let violating = 0;
  for (const path of s.replayFiles) violating += await replayOne(s, client, path);
  if (s.replayFiles.length > 1) log(`\n${s.replayFiles.length} files played, ${violating} with a violation`);
  return violating === 0 ? 0 : 1;
}

/**
 * The index a kept regression (a file naming no seed and index) plays at: one of its own, from its name, so that
 * files played in one process never share a run id (a schedule that repeats an earlier one's payment ids in the same
 * process has been seen to lose a notification: docs/fault-checker.md, "What it does not model").
 */
function indexOfName(path: string): number {
  return Number.parseInt(createHash("sha256").update(basename(path)).digest("hex").slice(0, 4), 16);
}

/** Plays one schedule again (an index of the seed, or a file's), prints its history and hash; 1 on a violation. */
async function replayOne(s: SimSettings, client: ClientSwitches, path?: string): Promise<number> {
  const file = path ? (JSON.parse(readFileSync(path, "utf8")) as Partial<RunRecord>) : undefined;
  const seed = file ? (file.seed ?? 0) : s.seed;
  const index = file ? Number(file.path ?? indexOfName(path as string)) : (s.replayIndex as number);
  const kind = kindAt(s, index);
  const regions = file?.schedule && needsTwoRegions(file.schedule) ? 2 : kind.regions;
  log(
    `\nreplaying schedule ${index} of seed ${seed} (${regions} Region(s))${path ? ` as ${path} holds it` : ""}`,
  );
  await warmUp(regions);
  const { record, historyHash } = await playInWorld(
    { seed, index, regions, realWorld: kind.realWorld },
    file?.schedule,
    client,
  );
  log(describeSchedule(record.schedule));
  if (!path || record.violations.length > 0) for (const line of historyLines(record)) log(line);
  for (const v of record.violations) log(`  VIOLATION ${v.check}: ${v.reason}`);
  log(`history sha256 ${historyHash}`);
  log(record.violations.length === 0 ? "no violation" : `${record.violations.length} violation(s)`);
  return record.violations.length === 0 ? 0 : 1;
}

async function main(): Promise<number> {
  let s: SimSettings;
  try {
    s = simSettings(process.argv.slice(2));
  } catch (err) {
    console.error(err instanceof SimUsageError ? `refused: ${err.message}` : err);
    console.error(SIM_USAGE);
    return 2;
  }
  if (s.replayIndex !== undefined || s.replayFiles.length > 0) return replay(s);
  const summary = await runWorkers(s, process.argv.slice(2), log);
  const first = summary.violations[0];
  if (!first) return 0;
  if (s.keepGoing) {
    log("\nviolations, each replayed by its command:");
    for (const v of summary.violations)
      log(`  ${v.index}  ${v.checks.join(", ")}\n      ${replayCommand(s, v.index)}`);
    return 1;
  }
  const record = JSON.parse(readFileSync(first.file, "utf8")) as RunRecord;
  log(`\nVIOLATION in schedule ${first.index}: ${describeSchedule(record.schedule)}`);
  for (const v of record.violations) log(`  ${v.check}: ${v.reason}`);
  log(`history sha256 ${(record as RunRecord & { historyHash?: string }).historyHash}`);
  log(`\nreplay it, byte for byte:  ${replayCommand(s, first.index)}`);
  if (s.shrink) {
    log("\nshrinking it in its own world...");
    const { env, client } = switchesOf(s.unsafe);
    useChaosEnv(env);
    const at = { seed: s.seed, index: first.index, ...kindAt(s, first.index) };
    await warmUp(at.regions);
    const shrunk = await shrinkInWorld(at, record, client, log);
    const { writeFileSync } = await import("node:fs");
    const file = first.file.replace(/\.json$/, "-shrunk.json");
    writeFileSync(file, `${JSON.stringify(shrunk, null, 2)}\n`);
    log(`shrunk to ${shrunk.schedule.steps.length} steps: ${describeSchedule(shrunk.schedule)}`);
    for (const line of historyLines(shrunk)) log(line);
    log(
      `\nreplay the shrunk one:  npm run sim -- --replay-file ${file}${s.unsafe.map((u) => ` --unsafe ${u}`).join("")}`,
    );
  }
  return 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
