import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { type SimSummary, summaryLines } from "./sim-report";
import type { SimSettings } from "./sim-settings";
import type { WorkerLine } from "./sim-worker";

const WORKER = new URL("./sim-worker.ts", import.meta.url).pathname;

/**
 * Plays a run on `parallel` worker processes (worker k takes the indexes k, k + parallel, …), prints a progress
 * line every few seconds, stops them all at the first violation or the time limit, and answers the summary.
 */
export async function runWorkers(
  s: SimSettings,
  argv: string[],
  log: (l: string) => void,
): Promise<SimSummary> {
  const started = Date.now();
  const untilMs = s.forMinutes ? started + s.forMinutes * 60_000 : Number.MAX_SAFE_INTEGER;
  const summary: SimSummary = {
    ...{ seed: s.seed, runs: 0, byRegions: {}, seconds: 0, schedulesPerMinute: 0, virtualSeconds: 0 },
    ...{ faultsFired: {}, violations: [], unsafe: s.unsafe },
  };
  log(
    `sim: seed ${s.seed}, ${s.runs === Number.MAX_SAFE_INTEGER ? "no count limit" : `${s.runs} schedules`}${s.forMinutes ? `, for ${s.forMinutes} min` : ""}, regions ${s.regions}, ${s.parallel} process(es)`,
  );
  const workers: ChildProcess[] = [];
  let lastLine = 0;
  const progress = (force = false) => {
    if (!force && Date.now() - lastLine < 5_000) return;
    lastLine = Date.now();
    const seconds = (Date.now() - started) / 1000;
    const faults = Object.values(summary.faultsFired).reduce((a, n) => a + n, 0);
    log(
      `  [${String(summary.runs).padStart(7)}] ${((summary.runs / Math.max(1, seconds)) * 60).toFixed(0)} schedules/min, ${summary.violations.length} violations, ${faults} faults fired, ${Math.round(seconds)} s`,
    );
  };
  const stopAll = () => {
    for (const w of workers) {
      if (w.exitCode !== null || w.signalCode !== null || !w.pid) continue;
      try {
        process.kill(w.pid, "SIGTERM");
      } catch {
        // it ended between the look and the kill
      }
    }
  };
  const onSignal = (signal: NodeJS.Signals) => {
    summary.stoppedBy = signal;
    stopAll();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const heard = (line: WorkerLine) => {
    summary.runs += 1;
    summary.byRegions[line.regions] = (summary.byRegions[line.regions] ?? 0) + 1;
    summary.virtualSeconds += line.virtualMs / 1000;
    for (const [k, n] of Object.entries(line.faultsFired))
      summary.faultsFired[k] = (summary.faultsFired[k] ?? 0) + n;
    if (line.file) {
      summary.violations.push({ index: line.index, checks: line.checks, file: line.file });
      log(`  VIOLATION in schedule ${line.index}: ${line.checks.join(", ")}`);
      stopAll();
    }
    progress();
  };
  try {
    await Promise.all(
      Array.from({ length: s.parallel }, (_, k) => {
        const w = spawn(
          process.execPath,
          ["--import", "tsx", WORKER, String(k), String(s.parallel), String(untilMs), ...argv],
          {
            env: { ...process.env, POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? "CRITICAL" },
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        workers.push(w);
        const errors: string[] = [];
        w.stderr?.on("data", (d: Buffer) => errors.push(d.toString()));
        createInterface({ input: w.stdout as NodeJS.ReadableStream }).on("line", (l) => heard(JSON.parse(l)));
        return new Promise<void>((resolve, reject) =>
          w.on("exit", (code, signal) =>
            code === 0 || signal === "SIGTERM"
              ? resolve()
              : reject(new Error(`sim worker ${k} failed (exit ${code}): ${errors.join("").slice(-2_000)}`)),
          ),
        );
      }),
    );
  } finally {
    stopAll();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  summary.seconds = Math.round((Date.now() - started) / 1000);
  summary.schedulesPerMinute = Number(
    ((summary.runs / Math.max(1, (Date.now() - started) / 1000)) * 60).toFixed(1),
  );
  progress(true);
  for (const line of summaryLines(summary)) log(line);
  mkdirSync(s.outDir, { recursive: true });
  writeFileSync(join(s.outDir, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}
