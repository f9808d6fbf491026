/**
 * Open-loop load against the local stack on loopback: `npm run load -- --rate 40 --duration 30 [options]`.
 * Starts the stack unless given `--url`; or loads a deployed stage with `--stage <s>` (docs/load-against-a-stage.md).
 * Prints a progress line each second and a summary, writes report.json and report.html; exit 0 when every invariant
 * holds and no buyer gave up, 1 otherwise, 2 on usage or a refusal.
 */
import { verdictLines } from "./lib/load/buyer-verdict";
import { loadSettings, USAGE, UsageError } from "./lib/load/load-settings";
import type { LoadReport } from "./lib/load/report-types";
import { runLoad } from "./lib/load/run-load";
import { runStageLoad } from "./lib/load/run-stage-load";
import { planStageRun, STAGE_USAGE, type StagePlan, splitStageArgs } from "./lib/load/stage-target";
import { writeReports } from "./lib/load/write-report";
import { TargetError } from "./lib/target/target";

function printSummary(r: LoadReport, log: (line: string) => void): void {
  const width = Math.max(...Object.keys(r.summary).map((k) => k.length));
  log(`\nsummary (run ${r.run_id})`);
  for (const [k, v] of Object.entries(r.summary)) log(`  ${k.padEnd(width)}  ${v}`);
  log("\nlatency (ms from the planned tap)   p50     p90     p99   p99.9     max   count");
  for (const [name, p] of Object.entries(r.latency))
    log(
      `  ${name.padEnd(32)} ${[p.p50, p.p90, p.p99, p.p999, p.max].map((n) => String(n).padStart(7)).join(" ")} ${String(p.count).padStart(7)}`,
    );
  if (r.cpu) {
    log("\nCPU seconds while the load ran");
    for (const [k, v] of Object.entries(r.cpu)) log(`  ${k.padEnd(width)}  ${v}`);
  }
  log(
    `\ninvariants (${r.settings.target?.toString().startsWith("stage") ? "from the PSP's records and the public API" : "from the PSP's and the ledger's records"})`,
  );
  for (const i of r.invariants) log(`  ${i.ok ? "ok  " : "FAIL"}  ${i.name}: ${i.detail}`);
  if (r.buyers) {
    log("\nbuyers (latencies from the planned tap)");
    for (const line of verdictLines(r.buyers)) log(`  ${line}`);
  }
}

function resultLine(r: LoadReport): string {
  if (r.ok) return "result: every invariant holds and no buyer gave up (exit 0)";
  const broken = r.invariants.some((i) => !i.ok);
  const gaveUp = r.buyers?.gave_up ?? 0;
  const why = [
    ...(broken ? ["an invariant broke"] : []),
    ...(gaveUp > 0 ? [`${gaveUp} buyers gave up`] : []),
  ];
  return `result: NOT OK, ${why.join(" and ")} (exit 1)`;
}

async function main(): Promise<number> {
  let settings: ReturnType<typeof loadSettings>;
  let stage: StagePlan | undefined;
  try {
    const split = splitStageArgs(process.argv.slice(2));
    settings = loadSettings(split.rest);
    // Everything about the stage is found, and every refusal made, before anything is sent.
    if (split.stage) stage = planStageRun(settings, split.stage);
  } catch (err) {
    if (err instanceof TargetError) console.error(err.message);
    else
      console.error(err instanceof UsageError || err instanceof TypeError ? `refused: ${err.message}` : err);
    console.error(`${USAGE}\n${STAGE_USAGE}`);
    return 2;
  }
  const log = settings.json ? (l: string) => console.error(l) : (l: string) => console.log(l);
  const report = stage ? await runStageLoad(settings, stage, log) : await runLoad(settings, log);
  const paths = await writeReports(settings.reportDir, report);
  printSummary(report, log);
  if (settings.json) console.log(JSON.stringify(report));
  log(`\nreports: ${paths.json}\n         ${paths.html}`);
  log(resultLine(report));
  return report.ok ? 0 : 1;
}

process.exitCode = await main().catch((err: Error) => {
  console.error(`load: ${err.stack ?? err.message}`);
  return 1;
});
