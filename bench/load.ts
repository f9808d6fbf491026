import { loadSettings } from "../scripts/lib/load/load-settings";
import type { LoadReport } from "../scripts/lib/load/report-types";
import { runLoad } from "../scripts/lib/load/run-load";
import { writeReports } from "../scripts/lib/load/write-report";

// `npm run bench:load [-- --quick] [-- --only=caps,outage,ceiling]`: the load scenarios of the README, each on a fresh local stack (both Regions).
// (a) offered 10, 20, 40, 80/s against the PSP's default 25/s endpoint cap; (b) a 30 s PSP outage at 20/s;
// (c) the stack's own ceiling with the PSP's caps and our budget lifted, and where the CPU goes.
const quick = process.argv.includes("--quick");
const D = quick ? 15 : 30;
const log = (line: string) => {
  if (!/^t=/.test(line)) console.log(line);
};

async function run(name: string, args: string[]): Promise<LoadReport> {
  console.log(`\n== ${name}: npm run load -- ${args.join(" ")}`);
  const report = await runLoad(loadSettings([...args, "--report", `bench-report/${name}`]), log);
  await writeReports(`bench-report/${name}`, report);
  console.log(`   invariants ${report.ok ? "hold" : "BROKEN"}; report in bench-report/${name}/report.html`);
  return report;
}

const num = (r: LoadReport, k: string) => Number.parseFloat(String(r.summary[k]));

async function capsTable(): Promise<boolean> {
  const rows: string[] = [];
  let ok = true;
  for (const rate of [10, 20, 40, 80]) {
    const r = await run(`offered-${rate}`, ["--rate", String(rate), "--duration", String(D)]);
    ok &&= r.ok;
    const achieved = num(r, "achieved PSP calls/s while offered (live + resolver)");
    rows.push(
      `| ${rate}/s | ${achieved} | ${(achieved / 25).toFixed(2)} | ${r.summary["429s at the PSP"]} | ${r.summary["503 answers (budget spent, retried)"]} | ${r.summary["final answer within 10 s"]} | ${r.latency.first_answer.p99} ms |`,
    );
  }
  console.log("\n(a) against the PSP's 25/s endpoint cap (our budget 22/s)");
  console.log(
    "| offered | charges/s | of the PSP's cap | 429s at the PSP | 503 answers | final within 10 s | first answer p99 |",
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
  return ok;
}

async function outage(): Promise<boolean> {
  const r = await run("outage", [
    "--rate",
    "20",
    "--duration",
    String(D + 30),
    "--psp-outage",
    `10:30`,
    "--resolver-every",
    "10",
  ]);
  console.log("\n(b) a 30 s PSP outage at 20/s (resolver every 10 s)");
  for (const k of [
    "unknown backlog peak",
    "backlog drained after the outage (s)",
    "live first-answer p99 during the drain (ms)",
    "429s at the PSP",
    "final answer within 10 s",
  ])
    console.log(`  ${k}: ${r.summary[k]}`);
  return r.ok;
}

async function ceiling(): Promise<boolean> {
  const r = await run("ceiling", ["--ramp", "5:80", "--duration", String(D * 2), "--lift-caps"]);
  const best = Math.max(
    ...r.seconds.map((_, i, all) => all.slice(i, i + 5).reduce((a, x) => a + x.psp_live, 0) / 5),
  );
  const cpu = r.cpu ?? {};
  const total = Object.values(cpu).reduce((a, b) => a + b, 0) || 1;
  console.log("\n(c) the local stack's own ceiling (caps lifted, ramp 5→80/s)");
  console.log(
    `  best 5-s charges/s: ${best.toFixed(1)} (${(best / 25).toFixed(2)} × the PSP's default endpoint cap)`,
  );
  console.log(
    `  first answer p99: ${r.latency.first_answer.p99} ms; final within 10 s: ${r.summary["final answer within 10 s"]}`,
  );
  for (const [k, v] of Object.entries(cpu))
    console.log(`  CPU ${k}: ${v} s (${((v / total) * 100).toFixed(0)} %)`);
  return r.ok;
}

// `--only caps,outage,ceiling` runs a part of it.
const only = process.argv
  .find((a) => a.startsWith("--only="))
  ?.slice(7)
  .split(",") ?? ["caps", "outage", "ceiling"];
const parts: Record<string, () => Promise<boolean>> = { caps: capsTable, outage, ceiling };
const results: boolean[] = [];
for (const name of only) {
  const part = parts[name];
  if (!part) {
    console.error(`unknown part ${name}; parts: ${Object.keys(parts).join(", ")}`);
    process.exit(2);
  }
  results.push(await part());
}
process.exitCode = results.every(Boolean) ? 0 : 1;
