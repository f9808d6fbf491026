/**
 * The fault checker on the simulation: `npm run sim -- --seed S --for M`. Plays generated one- and two-Region
 * schedules, each in a world of its own (the whole stack on the models, virtual time, one seeded scheduler), judged
 * by the same checker as `npm run chaos`. Progress, a summary with schedules a minute and faults by kind; a violation
 * prints the one command that replays it byte for byte, then its shrunk schedule. Exit 0 none, 1 a violation, 2 usage.
 * With `--unsafe-own-guard`, the files are played each with the guard it names taken away: exit 0 when every one
 * was caught, 1 when one was not.
 */
import { readFileSync } from "node:fs";
import { switchesOf } from "./lib/chaos/chaos-settings";
import type { RunRecord } from "./lib/chaos/history";
import { describeSchedule } from "./lib/chaos/schedule";
import { replayOwnGuards } from "./lib/sim/own-guards";
import { useChaosEnv, warmUp } from "./lib/sim/play-in-world";
import { replayOne } from "./lib/sim/replay-file";
import { runWorkers } from "./lib/sim/run-workers";
import { historyLines, replayCommand } from "./lib/sim/sim-report";
import { kindAt, SIM_USAGE, type SimSettings, SimUsageError, simSettings } from "./lib/sim/sim-settings";
import { shrinkInWorld } from "./lib/sim/sim-shrink";

const log = (line: string) => console.log(line);

async function replay(s: SimSettings): Promise<number> {
  if (s.unsafeOwnGuard) return replayOwnGuards(s, log);
  const { env, client } = switchesOf(s.unsafe);
  useChaosEnv(env);
  let violating = 0;
  for (const index of s.replayIndexes)
    if ((await replayOne(s, { client, index }, log)).length > 0) violating += 1;
  for (const path of s.replayFiles)
    if ((await replayOne(s, { client, path }, log)).length > 0) violating += 1;
  if (s.replayFiles.length > 1) log(`\n${s.replayFiles.length} files played, ${violating} with a violation`);
  return violating === 0 ? 0 : 1;
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
  if (s.replayIndexes.length > 0 || s.replayFiles.length > 0) return replay(s);
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
