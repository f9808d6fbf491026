import { parseArgs } from "node:util";
import {
  inheritedAcrossFailover,
  listUnsettled,
  loadConfig,
  paymentDeps,
  pspSecret,
  RESOURCE_ENV,
  regionGate,
  settleUnknowns,
} from "@eo/core";
import { refusalOf } from "./lib/script-env";

// The resolver, run by hand (for example after a PSP outage, at 3 a.m.): settles unknown and stale
// payments and refunds with their derived keys, under the resolver's own PSP rate cap.
//   npx tsx scripts/resolve-unknowns.ts [--dry-run] [--limit 100]
// It reads the same environment as the resolver function and assumes none of it: AWS_REGION, REGION_ROLE,
// REGION_ACTIVE (true or false), CLAIM_MODE (home or mrsc), the table names, EVENTS_QUEUE_URL, PSP_URL and the
// PSP API key (PSP_API_KEY, or the linked PspApiKey under `sst shell`); locally also AWS_ENDPOINT_URL_DYNAMODB.
// Exit codes: 0 all examined payments settled (or, with --dry-run, listed); 1 some stayed unknown, an anomaly
// (the PSP charged a FAILED payment) is listed, or the rate cap stopped the pass (run it again later); 2 usage, a missing or odd environment, or this Region is
// the passive standby (nothing called, nothing changed).
const usage = `usage: npx tsx scripts/resolve-unknowns.ts [--dry-run] [--limit <n>]
  --dry-run      list what would be replayed; call nothing, change nothing
  --limit <n>    at most n payments per state (default 100)`;

async function main(): Promise<number> {
  const { values: v } = parseArgs({
    options: {
      "dry-run": { type: "boolean", default: false },
      limit: { type: "string", default: "100" },
      help: { type: "boolean", default: false },
    },
  });
  const limit = Number(v.limit);
  if (v.help || !Number.isInteger(limit) || limit < 1) {
    console.error(usage);
    return v.help ? 0 : 2;
  }
  const refusal = refusalOf({
    // The switches are checked by loadConfig, whose message names the values each accepts.
    required: RESOURCE_ENV,
    checks: [(env) => loadConfig(env), (env) => pspSecret("apiKey", env)],
  });
  if (refusal) {
    console.error(`${refusal} (run it with the resolver function's environment)`);
    return 2;
  }
  const deps = paymentDeps();
  const control = await regionGate(deps.config).control();
  if (control?.active !== deps.config.regionRole) {
    const why = control
      ? `the ${control.active} Region is active (epoch ${control.epoch})`
      : "no Region control record";
    console.error(`this Region (${deps.config.regionRole}) is passive: ${why}; resolve in the active Region`);
    return 2;
  }
  const rows = await listUnsettled(deps, limit);
  console.log(`${rows.length} payment(s) to examine in ${deps.config.region} (${deps.config.ledgerTable})`);
  if (v["dry-run"]) {
    for (const r of rows) {
      const how = inheritedAcrossFailover(r, control.epoch)
        ? `would only look up (guarded in epoch ${r.epoch ?? 1}, now ${control.epoch})`
        : "would replay";
      console.log(`  ${how} ${r.payment_id}  ${r.state}  ${r.amount} ${r.currency}`);
    }
    console.log(`dry run: nothing called, nothing changed`);
    return 0;
  }
  let n = 0;
  const report = await settleUnknowns(deps, {
    limit,
    epoch: control.epoch,
    onProgress: (e) => {
      n += 1;
      console.log(`  [${n}/${rows.length}] ${e.payment_id}  ${e.from} -> ${e.to}`);
    },
  });
  for (const a of report.anomalies)
    console.log(
      `  ANOMALY ${a.payment_id}  ${a.state}  ${a.kind}  PSP charge ${a.psp_charge}: act on it (README)`,
    );
  console.log(
    `summary: examined ${report.examined}, settled ${report.settled.length}, still unknown ${report.unresolved.length}` +
      `, anomalies ${report.anomalies.length}` +
      (report.rateLimited ? ", stopped by the rate cap (run again)" : ""),
  );
  return report.unresolved.length > 0 || report.anomalies.length > 0 || report.rateLimited ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`resolve-unknowns failed: ${err.message}`);
    process.exit(2);
  },
);
