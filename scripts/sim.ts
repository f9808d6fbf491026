/**
 * The fault checker on the simulation: `npm run sim -- --seed S --for M`. Plays generated one- and two-Region
 * schedules, each in a world of its own (the whole stack on the models, virtual time, one seeded scheduler), judged
 * by the same checker as `npm run chaos`. Progress, a summary with schedules a minute and faults by kind; a violation
 * prints the one command that replays it byte for byte, then its shrunk schedule. Exit 0 none, 1 a violation, 2 usage.
 */
import { readFileSync } from "node:fs";
import { switchesOf } from "./lib/chaos/chaos-settings";
import type { RunRecord } from "./lib/chaos/history";
import { describeSchedule } from "./lib/chaos/schedule";
import { playInWorld, useChaosEnv, warmUp } from "./lib/sim/play-in-world";
import { runWorkers } from "./lib/sim/run-workers";
import { historyLines, replayCommand } from "./lib/sim/sim-report";
import { regionsAt, SIM_USAGE, type SimSettings, SimUsageError, simSettings } from "./lib/sim/sim-settings";
import { shrinkInWorld } from "./lib/sim/sim-shrink";

const log = (line: string) => console.log(line);

async function replay(s: SimSettings): Promise<number> {
  const { env, client } = switchesOf(s.unsafe);
  useChaosEnv(env);
  const file = s.replayFile ? (JSON.parse(readFileSync(s.replayFile, "utf8")) as RunRecord) : undefined;
  const seed = file?.seed ?? s.seed;
  const index = file ? Number(file.path) : (s.replayIndex as number);
  const regions = regionsAt(s.regions, index);
  log(
    `replaying schedule ${index} of seed ${seed} (${regions} Region(s))${file ? ` as ${s.replayFile} holds it` : ""}`,
  );
  await warmUp(regions);
  const { record, historyHash } = await playInWorld({ seed, index, regions }, file?.schedule, client);
  log(describeSchedule(record.schedule));
  for (const line of historyLines(record)) log(line);
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
  if (s.replayIndex !== undefined || s.replayFile) return replay(s);
  const summary = await runWorkers(s, process.argv.slice(2), log);
  const first = summary.violations[0];
  if (!first) return 0;
  const record = JSON.parse(readFileSync(first.file, "utf8")) as RunRecord;
  log(`\nVIOLATION in schedule ${first.index}: ${describeSchedule(record.schedule)}`);
  for (const v of record.violations) log(`  ${v.check}: ${v.reason}`);
  log(`history sha256 ${(record as RunRecord & { historyHash?: string }).historyHash}`);
  log(`\nreplay it, byte for byte:  ${replayCommand(s, first.index)}`);
  if (s.shrink) {
    log("\nshrinking it in its own world...");
    const { env, client } = switchesOf(s.unsafe);
    useChaosEnv(env);
    const at = { seed: s.seed, index: first.index, regions: regionsAt(s.regions, first.index) };
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
