/**
 * Plays the suite's planned simulated runs one after another (`node --import tsx run-plan.ts <dir>`), each as
 * `npm run sim` plays it, writing `<dir>/<name>.json` (exit code, output, seconds) as each ends and `<dir>/done.json`
 * after the last. Started by test/support/sim-background/global-setup.ts at the lowest CPU priority.
 */
import { spawn } from "node:child_process";
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PLAN, type PlannedRun } from "./plan";

const dir = process.argv[2];
if (!dir) throw new Error("usage: run-plan.ts <report dir>");

/** One planned run, its output kept whole for the test that judges it and streamed to plan.log for a person. */
function play(run: PlannedRun, into: string): Promise<{ code: number; out: string; seconds: number }> {
  const started = Date.now();
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "scripts/sim.ts", "--out", join(into, run.name), ...run.args],
    {
      env: { ...process.env, POWERTOOLS_LOG_LEVEL: "CRITICAL", ...run.env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  const keep = (chunk: Buffer) => {
    out += chunk.toString();
    appendFileSync(join(into, "plan.log"), chunk);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  return new Promise((resolve) =>
    child.on("close", (code, signal) =>
      resolve({ code: code ?? (signal ? 128 : 1), out, seconds: (Date.now() - started) / 1000 }),
    ),
  );
}

async function main(into: string): Promise<void> {
  for (const run of PLAN) {
    appendFileSync(join(into, "plan.log"), `\n== ${run.name}: npm run sim -- ${run.args.join(" ")}\n`);
    const result = await play(run, into);
    writeFileSync(join(into, `${run.name}.json`), JSON.stringify({ name: run.name, ...result }));
  }
  writeFileSync(join(into, "done.json"), JSON.stringify({ runs: PLAN.length }));
}

// The suite's vitest started this runner; if vitest dies without its teardown (killed, crashed), the runner and its
// sim processes (its process group) stop with it rather than play on for minutes unowned.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.kill(-process.pid, "SIGTERM");
}, 2_000).unref();

main(dir).catch((err) => {
  writeFileSync(join(dir, "failed.json"), JSON.stringify({ error: String(err?.stack ?? err) }));
  process.exit(1);
});
