/**
 * Compares what the PSP charged with what the ledger holds, for a period:
 * `npm run reconcile -- --since <ISO time> [--local|--stage <s>] [--region <role>] [--json] [--stale-minutes 60]`.
 * Read-only. The ledger is the replica of the Region the authority names active (or `--region`'s); `--env` reads
 * AWS_REGION, LEDGER_TABLE, PSP_URL and PSP_API_KEY instead (locally also AWS_ENDPOINT_URL_DYNAMODB).
 * Exit 0 when everything matches, 1 on any discrepancy or a side that could not be read, 2 usage.
 */
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  discrepancyCounts,
  missingEnv,
  pspDialectOf,
  type ReconcileSources,
  type Reconciliation,
  reconcileSince,
  reconcileSources,
  STRIPE_API_URL,
} from "@eo/core";
import { regionToActOn } from "./lib/target/authority";
import { dynamoIn } from "./lib/target/clients";
import { findTarget } from "./lib/target/find-target";
import { pspFor } from "./lib/target/psp-access";
import { TargetError } from "./lib/target/target";
import {
  chooseTarget,
  REGION_OPTION,
  REGION_USAGE,
  regionFlag,
  TARGET_OPTIONS,
  TARGET_USAGE,
} from "./lib/target/target-args";

const usage = `usage: npm run reconcile -- --since <ISO time> [--local|--stage <s>] [--region <role>] [--json] [--stale-minutes <n>]
  --since <time>        the start of the period, e.g. 2026-12-01T00:00:00Z
${TARGET_USAGE}
${REGION_USAGE}
  --env                instead of --local/--stage: AWS_REGION, LEDGER_TABLE, PSP_URL, PSP_API_KEY from the environment
  --stale-minutes <n>   a payment unknown for longer than this is a discrepancy (default 60)
  --json                print the report as JSON on stdout (progress goes to stderr)`;

function args() {
  try {
    const { values } = parseArgs({
      options: {
        ...TARGET_OPTIONS,
        ...REGION_OPTION,
        env: { type: "boolean", default: false },
        since: { type: "string" },
        json: { type: "boolean", default: false },
        "stale-minutes": { type: "string", default: "60" },
      },
    });
    const since = Date.parse(values.since ?? "");
    const stale = Number(values["stale-minutes"]);
    if (!values.since || Number.isNaN(since) || !(stale > 0)) return undefined;
    return { ...values, since, stale };
  } catch {
    return undefined;
  }
}

type Args = NonNullable<ReturnType<typeof args>>;

/** Both sides from the target (`--local`, `--stage`) or from the environment (`--env`), and what they are. */
async function sourcesOf(a: Args): Promise<{ sources: ReconcileSources; what: string }> {
  const target = await findTarget(chooseTarget(a, a.env));
  if (!target) {
    if (a.region !== undefined) throw new TargetError("refused: --region goes with --local or --stage");
    // PSP=stripe: Stripe's key, and its API unless PSP_URL names another (the local fake).
    const psp = pspDialectOf(process.env);
    const keyVar = psp === "stripe" ? "STRIPE_SECRET_KEY" : "PSP_API_KEY";
    const needed = ["AWS_REGION", "LEDGER_TABLE", ...(psp === "stripe" ? [] : ["PSP_URL"]), keyVar];
    const missing = missingEnv(process.env, needed);
    if (missing.length > 0)
      throw new TargetError(
        `refused: ${missing.join(", ")} not set; this script assumes no Region, table or PSP`,
      );
    const ledgerTable = process.env.LEDGER_TABLE as string;
    const pspUrl = process.env.PSP_URL || STRIPE_API_URL;
    const apiKey = process.env[keyVar] as string;
    return {
      sources: reconcileSources({
        db: DynamoDBDocumentClient.from(new DynamoDBClient({ maxAttempts: 3 })),
        ledgerTable,
        pspUrl,
        apiKey: () => apiKey,
        psp,
      }),
      what: `the ledger ${ledgerTable} in ${process.env.AWS_REGION} (from the environment)`,
    };
  }
  const psp = pspFor(target);
  const { role, why } = await regionToActOn(target, regionFlag(a.region));
  const r = target.regions[role];
  return {
    sources: reconcileSources({
      db: dynamoIn(target, r.region),
      ledgerTable: r.ledger,
      pspUrl: psp.url,
      apiKey: () => psp.apiKey,
      psp: psp.psp,
    }),
    what: `the ${role} ledger (${r.ledger} in ${r.region}; ${why}) of ${target.where}`,
  };
}

function print(r: Reconciliation, runId: string, log: (l: string) => void): void {
  const sums =
    Object.entries(r.matched.sums)
      .map(([c, v]) => `${v} ${c}`)
      .join(", ") || "nothing";
  log(`summary (run ${runId}):`);
  log(`  PSP charges ${r.charges}, ledger payments ${r.rows}, matched ${r.matched.count} (${sums})`);
  log(`  too recent ${r.too_recent} (no row yet, charged just before or during the ledger scan: next run)`);
  for (const [k, n] of discrepancyCounts(r)) log(`  ${k.padEnd(26)} ${n}`);
  for (const d of r.discrepancies.slice(0, 50))
    log(`    ${d.kind}  ${d.payment_id}  ${d.charge ?? "-"}  ${d.detail}`);
  log(
    r.discrepancies.length === 0
      ? "result: the PSP and the ledger match (exit 0)"
      : `result: ${r.discrepancies.length} discrepancy(ies) (exit 1)`,
  );
}

async function main(): Promise<number> {
  const a = args();
  if (!a) {
    console.error(usage);
    return 2;
  }
  let found: Awaited<ReturnType<typeof sourcesOf>>;
  try {
    found = await sourcesOf(a);
  } catch (err) {
    if (!(err instanceof TargetError)) throw err;
    console.error(`${err.message}\n${usage}`);
    return 2;
  }
  const { sources, what } = found;
  const runId = randomUUID();
  const log = a.json ? (l: string) => console.error(l) : (l: string) => console.log(l);
  log(`reconcile run ${runId}: since ${new Date(a.since).toISOString()}, read-only; ${what}`);
  const report = await reconcileSince(sources, {
    sinceMs: a.since,
    now: Date.now(),
    staleMs: a.stale * 60_000,
    progress: (side, n) =>
      log(side === "psp" ? `  PSP charges listed: ${n}` : `  ledger payments read: ${n}`),
  });
  print(report, runId, log);
  if (a.json) console.log(JSON.stringify({ run_id: runId, ...report }, null, 2));
  return report.discrepancies.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    // Not knowing is not a match: a run that could not read both sides fails like a discrepancy.
    console.error(`reconcile failed, nothing compared: ${(err as Error).message}`);
    process.exit(1);
  },
);
