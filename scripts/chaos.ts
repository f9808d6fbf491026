/**
 * Randomized fault schedules with an independent checker: `npm run chaos -- --runs 10000 --parallel 2`.
 * Starts its own local stacks (ports of 0, stopped by process group), prints progress and a summary; on a
 * violation it shrinks the schedule, writes it, and prints the one command that replays it. Exit 0 no
 * violation, 1 a violation, 2 usage.
 */
import { readFileSync } from "node:fs";
import { ChaosApi } from "./lib/chaos/chaos-api";
import { type ChaosSettings, chaosSettings, switchesOf, USAGE, UsageError } from "./lib/chaos/chaos-settings";
import { chaosEnv } from "./lib/chaos/chaos-stack";
import type { RunRecord } from "./lib/chaos/history";
import { type ChaosSummary, longRun, startChaosStack, writeRecord } from "./lib/chaos/long-run";
import { runOne } from "./lib/chaos/run-one";
import { describeSchedule, needsTwoRegions } from "./lib/chaos/schedule";
import { shrinkViolation } from "./lib/chaos/shrink";

const log = (line: string) => console.log(line);
// The nemesis runs the failover from this process: its act window must be the stacks' (chaosEnv), not the 8 s default.
process.env.FAILOVER_ACT_WINDOW_MS ??= chaosEnv().FAILOVER_ACT_WINDOW_MS;

function printSummary(s: ChaosSummary): void {
  log(
    `\nsummary (seed ${s.seed}, ${s.regions} Region(s)${s.unsafe.length ? `, guards taken away: ${s.unsafe.join(", ")}` : ""})`,
  );
  log(`  runs          ${s.runs} in ${s.seconds} s on ${s.parallel} stack(s): ${s.runsPerMinute} runs/min`);
  log(`  violations    ${s.violations.length}`);
  if (s.stoppedBy) log(`  stopped early by ${s.stoppedBy}: the runs above are every schedule that finished`);
  log("  faults fired by kind:");
  const kinds = Object.entries(s.faultsFired).sort((a, b) => b[1] - a[1]);
  for (const [k, n] of kinds) log(`    ${k.padEnd(34)} ${String(n).padStart(7)}`);
}

function printViolation(record: RunRecord, file: string): void {
  log(`\nVIOLATION (shrunk to ${record.schedule.steps.length} steps): ${describeSchedule(record.schedule)}`);
  for (const v of record.violations) log(`  ${v.check}: ${v.reason}`);
  printHistory(record);
  log(`\nreplay it:  npm run chaos -- --replay ${file}`);
}

function printHistory(record: Pick<RunRecord, "history">): void {
  log("history:");
  for (const e of record.history)
    log(
      `  ${String(e.at_ms).padStart(6)} ms  ${e.process.padEnd(16)} ${e.type.padEnd(6)} ${e.op}${e.key ? ` ${e.key}` : ""}${e.payment_id ? ` ${e.payment_id}` : ""}${e.status !== undefined ? ` → ${e.status}` : ""}${e.state ? ` ${e.state}` : ""}${e.replayed ? " (replayed)" : ""}${e.detail && e.type !== "ok" ? ` (${e.detail})` : ""}`,
    );
}

async function replay(s: ChaosSettings): Promise<number> {
  const parsed = JSON.parse(readFileSync(s.replay as string, "utf8")) as Partial<RunRecord>;
  if (!parsed.schedule) throw new UsageError(`${s.replay} holds no schedule`);
  // A kept regression (test/chaos/regressions) is a schedule with why, and no switches: every guard on.
  const record = { ...parsed, schedule: parsed.schedule, switches: parsed.switches ?? { server: [] } };
  const env = Object.fromEntries(record.switches.server.map((name) => [name, "1"]));
  log(`replaying ${s.replay}: ${describeSchedule(record.schedule)}`);
  const stack = await startChaosStack(env, log, needsTwoRegions(record.schedule) ? 2 : 1);
  try {
    const again = await runOne(
      new ChaosApi(stack.apiUrl),
      record.schedule,
      record.switches,
      record.switches.server,
    );
    for (const v of again.violations) log(`  ${v.check}: ${v.reason}`);
    if (again.violations.length > 0) printHistory(again);
    log(
      again.violations.length === 0
        ? "no violation on this replay"
        : `${again.violations.length} violation(s)`,
    );
    return again.violations.length === 0 ? 0 : 1;
  } finally {
    await stack.stop();
  }
}

async function main(): Promise<number> {
  let s: ChaosSettings;
  try {
    s = chaosSettings(process.argv.slice(2));
  } catch (err) {
    console.error(err instanceof UsageError ? `refused: ${err.message}` : err);
    console.error(USAGE);
    return 2;
  }
  if (s.replay) return replay(s);
  log(`chaos: ${s.runs} schedules, seed ${s.seed}, ${s.parallel} stack(s), ${s.regions} Region(s)`);
  const summary = await longRun(s, log);
  printSummary(summary);
  const first = summary.violations[0];
  if (!first) return 0;
  const record = JSON.parse(readFileSync(first.file, "utf8")) as RunRecord;
  if (s.shrink) {
    log("\nshrinking the first violation on a fresh stack...");
    const stack = await startChaosStack(switchesOf(s.unsafe).env, log, s.regions);
    try {
      const shrunk = await shrinkViolation(
        new ChaosApi(stack.apiUrl),
        record,
        switchesOf(s.unsafe).client,
        log,
      );
      printViolation(shrunk, writeRecord(s.outDir, `shrunk-${s.seed}-${first.index}.json`, shrunk));
    } finally {
      await stack.stop();
    }
  } else printViolation(record, first.file);
  return 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
