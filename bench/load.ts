import { loadSettings } from "../scripts/lib/load/load-settings";
import type { LoadReport } from "../scripts/lib/load/report-types";
import { runLoad } from "../scripts/lib/load/run-load";
import { writeReports } from "../scripts/lib/load/write-report";

// `npm run bench:load [-- --quick] [-- --only=caps,outage,ceiling]`: the load scenarios of the README, each on a fresh
// local stack (both Regions). A 2-core machine running DynamoDB Local tops out near 10 payments/s end to end, below
// Stripe's 25/s endpoint cap, so (a) and (b) scale every rate by 1/5 (the PSP's endpoint cap 5/s, our budget 4.4/s,
// the resolver's 2/s): the ratios to the cap are the issue's (0.4x, 0.8x, 1.6x, 3.2x), and the PSP's cap, not the
// emulator, is what binds. (c) lifts every cap to find the stack's own ceiling and where its CPU goes.
const quick = process.argv.includes("--quick");
const D = quick ? 15 : 30;
const SCALE = 5;
const log = (line: string) => {
  if (!/^t=/.test(line)) console.log(line);
};

async function run(name: string, args: string[], env: Record<string, string> = {}): Promise<LoadReport> {
  console.log(
    `\n== ${name}: ${Object.entries(env)
      .map(([k, v]) => `${k}=${v} `)
      .join("")}npm run load -- ${args.join(" ")}`,
  );
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const report = await runLoad(loadSettings([...args, "--report", `bench-report/${name}`]), log);
    await writeReports(`bench-report/${name}`, report);
    console.log(`   invariants ${report.ok ? "hold" : "BROKEN"}; report in bench-report/${name}/report.html`);
    return report;
  } finally {
    process.env = saved;
  }
}

/** PSP calls a second (live and resolver) in the arrivals' steady part, after the first fifth. */
function steadyPspPerS(r: LoadReport): number {
  const d = Number(r.settings.duration_s);
  const steady = r.seconds.filter((x) => x.t > d / 5 && x.t <= d);
  return steady.reduce((a, x) => a + x.psp_live + x.psp_resolver, 0) / Math.max(1, steady.length);
}

const SCALED_CAPS = { PSP_ENDPOINT_RATE_PER_S: String(22 / SCALE), RESOLVER_RATE_PER_S: String(10 / SCALE) };
const SCALED_PSP = ["--psp-limit", `${100 / SCALE}:${25 / SCALE}`];

async function capsTable(): Promise<boolean> {
  const rows: string[] = [];
  let ok = true;
  for (const ratio of [0.4, 0.8, 1.6, 3.2]) {
    const rate = (25 / SCALE) * ratio;
    const r = await run(
      `offered-${ratio}x`,
      ["--rate", String(rate), "--duration", String(D), ...SCALED_PSP],
      SCALED_CAPS,
    );
    ok &&= r.ok;
    const charged = steadyPspPerS(r);
    rows.push(
      `| ${ratio}x (${rate}/s) | ${(charged / (25 / SCALE)).toFixed(2)} | ${r.summary["429s at the PSP"]} | ${r.summary["503 answers (budget spent, retried)"]} | ${r.summary["final answer within 10 s"]} | ${r.latency.first_answer.p99} ms | ${r.ok ? "hold" : "BROKEN"} |`,
    );
  }
  console.log(
    `\n(a) offered load against the PSP's endpoint cap (scaled 1/${SCALE}: cap ${25 / SCALE}/s, our budget ${22 / SCALE}/s)`,
  );
  console.log(
    "| offered (x cap) | PSP calls/s (x cap) | 429s at the PSP | 503 answers | final within 10 s | first answer p99 | invariants |",
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
  return ok;
}

async function outage(): Promise<boolean> {
  const rate = (20 / SCALE).toString();
  const args = [
    "--rate",
    rate,
    "--duration",
    "70",
    "--psp-outage",
    "10:30",
    "--resolver-every",
    "10",
    ...SCALED_PSP,
  ];
  const r = await run("outage", args, SCALED_CAPS);
  console.log(
    `\n(b) a 30 s PSP outage at ${rate}/s (0.8x the scaled cap; resolver every 10 s at ${10 / SCALE}/s)`,
  );
  for (const k of [
    "unknown backlog peak",
    "backlog drained after the outage (s)",
    "live first-answer p99 during the drain (ms)",
    "429s at the PSP",
    "503 answers (budget spent, retried)",
    "final answer within 10 s",
  ])
    console.log(`  ${k}: ${r.summary[k]}`);
  return r.ok;
}

async function ceiling(): Promise<boolean> {
  const r = await run("ceiling", ["--ramp", "2:40", "--duration", String(D * 2), "--lift-caps"]);
  const per = r.seconds.map((x) => (x.first_answers["201"] ?? 0) + (x.first_answers["402"] ?? 0));
  const best = Math.max(...per.map((_, i) => per.slice(i, i + 5).reduce((a, b) => a + b, 0) / 5));
  const cpu = r.cpu ?? {};
  const total = Object.values(cpu).reduce((a, b) => a + b, 0) || 1;
  console.log("\n(c) the local stack's own ceiling (every cap lifted, ramp 2→40/s)");
  console.log(
    `  best 5-s rate of final first answers: ${best.toFixed(1)}/s (${(best / 25).toFixed(2)}x Stripe's 25/s endpoint cap)`,
  );
  console.log(
    `  first answer p50 ${r.latency.first_answer.p50} ms, p99 ${r.latency.first_answer.p99} ms; final within 10 s: ${r.summary["final answer within 10 s"]}`,
  );
  for (const [k, v] of Object.entries(cpu))
    console.log(`  CPU ${k}: ${v} s (${((v / total) * 100).toFixed(0)} %)`);
  const elapsed = r.seconds.length;
  console.log(
    `  CPU of all processes: ${total.toFixed(1)} s over ${elapsed} s = ${(total / elapsed).toFixed(2)} of 2 cores`,
  );
  return r.ok;
}

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
