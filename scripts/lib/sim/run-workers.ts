import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { type SimSummary, summaryLines } from "./sim-report";
import type { SimSettings } from "./sim-settings";
import type { WorkerLine } from "./sim-worker";

const WORKER = new URL("./sim-worker.ts", import.meta.url).pathname;

/**
 * When the steady rate starts: a process loads its modules in a few seconds, but V8 keeps compiling the hot paths
 * for longer (seed 882301's ten-minute run played 577 a minute over its first 63 s and 688 over the next 61), which
 * a day's run pays once.
 */
const STEADY_AFTER_MS = 30_000;

/**
 * AsyncLocalStorage kept in V8's continuation frames instead of async hooks (Node 22's flag, Node 24's default): the
 * Regions' environments and the world's timers keep the same contexts (the same history hashes), without a hook on
 * every promise, about a fifth of a worker's time.
 */
const WORKER_FLAGS = [
  ...(process.allowedNodeEnvironmentFlags.has("--experimental-async-context-frame")
    ? ["--experimental-async-context-frame"]
    : []),
  // A schedule allocates a world of short-lived objects (every request serialized and parsed): a larger young
  // generation scavenges less often, measured about 5% faster a worker.
  "--max-semi-space-size=64",
];

/**
 * Plays a run on `parallel` worker processes (worker k takes the indexes k, k + parallel, …), prints a progress
 * line every few seconds, stops them all at the lowest violating index (every lower one played) or the time limit, and
 * answers the summary, its violations in index order.
 */
export async function runWorkers(
  s: SimSettings,
  argv: string[],
  log: (l: string) => void,
): Promise<SimSummary> {
  const started = Date.now();
  const untilMs = s.forMinutes ? started + s.forMinutes * 60_000 : Number.MAX_SAFE_INTEGER;
  const summary: SimSummary = {
    ...{ seed: s.seed, runs: 0, byKind: {}, seconds: 0, schedulesPerMinute: 0, virtualSeconds: 0 },
    ...{ faultsFired: {}, violations: [], unsafe: s.unsafe },
  };
  log(
    `sim: seed ${s.seed}, ${s.runs === Number.MAX_SAFE_INTEGER ? "no count limit" : `${s.runs} schedules`}${s.forMinutes ? `, for ${s.forMinutes} min` : ""}, regions ${s.regions}, nemesis ${s.nemesis}, ${s.parallel} process(es)`,
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
  const stop = (w: ChildProcess) => {
    if (w.exitCode !== null || w.signalCode !== null || !w.pid) return;
    try {
      process.kill(w.pid, "SIGTERM");
    } catch {
      // it ended between the look and the kill
    }
  };
  const stopAll = () => {
    for (const w of workers) stop(w);
  };
  // The index each worker plays now (the one after its last line). At a violation, a worker still below its index
  // plays on, so the run reports the lowest violating index whichever process is faster: the same on every machine.
  const playing = Array.from({ length: s.parallel }, (_, k) => k);
  const stopPastViolation = () => {
    const lowest = Math.min(...summary.violations.map((v) => v.index));
    workers.forEach((w, k) => {
      if ((playing[k] ?? 0) > lowest) stop(w);
    });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    summary.stoppedBy = signal;
    stopAll();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  // The first schedule heard once every process has played one and STEADY_AFTER_MS have passed (modules loaded, the
  // hot code compiled), and the count then: the steady rate starts there.
  const playedOne = new Set<number>();
  let steadyFrom: { at: number; runs: number } | undefined;
  const heard = (line: WorkerLine) => {
    summary.runs += 1;
    playedOne.add(line.index % s.parallel);
    if (!steadyFrom && playedOne.size === s.parallel && Date.now() - started >= STEADY_AFTER_MS)
      steadyFrom = { at: Date.now(), runs: summary.runs };
    summary.byKind[line.kind] = (summary.byKind[line.kind] ?? 0) + 1;
    summary.virtualSeconds += line.virtualMs / 1000;
    for (const [k, n] of Object.entries(line.faultsFired))
      summary.faultsFired[k] = (summary.faultsFired[k] ?? 0) + n;
    playing[line.index % s.parallel] = line.index + s.parallel;
    if (line.file) {
      summary.violations.push({ index: line.index, checks: line.checks, file: line.file });
      summary.violations.sort((a, b) => a.index - b.index);
      log(`  VIOLATION in schedule ${line.index}: ${line.checks.join(", ")}`);
    }
    if (summary.violations.length > 0 && !s.keepGoing) stopPastViolation();
    progress();
  };
  try {
    await Promise.all(
      Array.from({ length: s.parallel }, (_, k) => {
        const w = spawn(
          process.execPath,
          [
            ...WORKER_FLAGS,
            "--import",
            "tsx",
            WORKER,
            String(k),
            String(s.parallel),
            String(untilMs),
            ...argv,
          ],
          {
            env: { ...process.env, POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? "CRITICAL" },
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        workers.push(w);
        // Only the end of a worker's stderr is kept, for the error if it fails: a run lasts hours.
        let errors = "";
        w.stderr?.on("data", (d: Buffer) => {
          errors = (errors + d.toString()).slice(-8_000);
        });
        createInterface({ input: w.stdout as NodeJS.ReadableStream }).on("line", (l) => heard(JSON.parse(l)));
        return new Promise<void>((resolve, reject) =>
          w.on("exit", (code, signal) =>
            code === 0 || signal === "SIGTERM"
              ? resolve()
              : reject(new Error(`sim worker ${k} failed (exit ${code}): ${errors.slice(-4_000)}`)),
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
  const steadyMs = steadyFrom ? Date.now() - steadyFrom.at : 0;
  if (steadyFrom && steadyMs >= 10_000)
    summary.steady = {
      perMinute: Number((((summary.runs - steadyFrom.runs) / (steadyMs / 1000)) * 60).toFixed(1)),
      afterSeconds: Math.round((steadyFrom.at - started) / 1000),
    };
  progress(true);
  for (const line of summaryLines(summary)) log(line);
  mkdirSync(s.outDir, { recursive: true });
  writeFileSync(join(s.outDir, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}
