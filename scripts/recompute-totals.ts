import { parseArgs } from "node:util";
import type { RegionRole } from "@eo/core";
import { type RecomputeSummary, recomputeRegion } from "./lib/recompute/recompute-region";
import { dynamoIn, sqsIn } from "./lib/target/clients";
import { findTarget } from "./lib/target/find-target";
import { type Target, TargetError } from "./lib/target/target";
import { chooseTarget, TARGET_OPTIONS, TARGET_USAGE } from "./lib/target/target-args";

// Adds to the merchants' daily totals the batches the stream job gave up on (its failure queue, one per Region):
//   npm run recompute-totals -- --local|--stage <s> [--region primary|standby] [--dry-run] [--max n]
// Each batch's events are checked against the ledger first; a batch it does not confirm stays on the queue.
// Exit codes: 0 every batch examined was added (or would be, with --dry-run); 1 something was left or a Region could
// not be read; 2 usage or setup (no target, or a stage deployed before the stream job had its own failure queue).
const usage = `usage: npm run recompute-totals -- --local|--stage <s> [options]
${TARGET_USAGE}
  --region <role>      primary or standby (default: both; each Region's job has its own queue and totals)
  --dry-run            show what would be added; write and delete nothing
  --max <n>            examine at most n messages per Region (default 1000)`;

const ROLES: RegionRole[] = ["primary", "standby"];

function parse() {
  return parseArgs({
    options: {
      ...TARGET_OPTIONS,
      region: { type: "string" },
      "dry-run": { type: "boolean", default: false },
      max: { type: "string", default: "1000" },
      help: { type: "boolean", default: false },
    },
  });
}

/** The Regions to act on, the target and the flags; a number is the exit code to stop with. */
async function readOptions() {
  let v: ReturnType<typeof parse>["values"];
  try {
    v = parse().values;
  } catch (err) {
    console.error(`${(err as Error).message}\n${usage}`);
    return 2;
  }
  if (v.help) {
    console.error(usage);
    return 0;
  }
  const max = Number(v.max);
  const roles = v.region === undefined ? ROLES : ROLES.filter((r) => r === v.region);
  if (!(Number.isInteger(max) && max > 0) || roles.length === 0) {
    console.error(`refused: --max must be a positive whole number and --region primary or standby\n${usage}`);
    return 2;
  }
  try {
    const target = await findTarget(chooseTarget(v));
    if (!target) throw new TargetError("refused: no target");
    for (const role of roles)
      if (!target.regions[role].totals || !target.regions[role].streamJobFailures)
        throw new TargetError(
          `refused: ${target.where} names no stream-job failure queue or totals table for ${role} (deploy this version first)`,
        );
    return { target, roles, dryRun: v["dry-run"] ?? false, max };
  } catch (err) {
    if (!(err instanceof TargetError)) throw err;
    console.error(`${err.message}\n${usage}`);
    return 2;
  }
}

async function runRegion(t: Target, role: RegionRole, dryRun: boolean, max: number) {
  const r = t.regions[role];
  const sqs = sqsIn(t, r.region);
  const db = dynamoIn(t, r.region);
  try {
    return await recomputeRegion({
      role,
      sqs,
      db,
      queueUrl: r.streamJobFailures as string,
      totalsTable: r.totals as string,
      ledgerTable: r.ledger,
      dryRun,
      max,
      log: (line) => console.log(line),
    });
  } finally {
    sqs.destroy();
    db.destroy();
  }
}

async function main(): Promise<number> {
  const o = await readOptions();
  if (typeof o === "number") return o;
  console.log(`${o.dryRun ? "dry run: " : ""}recomputing skipped stream-job batches of ${o.target.where}`);
  let unsafe = false;
  for (const role of o.roles) {
    console.log(`${role} (${o.target.regions[role].region}): reading its stream-job failure queue`);
    try {
      const s = await runRegion(o.target, role, o.dryRun, o.max);
      console.log(summaryLine(role, s, o.dryRun));
      if (s.left.length > 0) unsafe = true;
    } catch (err) {
      console.log(`summary ${role}: FAILED: ${(err as Error).message} (nothing more was read there)`);
      unsafe = true;
    }
  }
  if (unsafe)
    console.log(
      'UNSAFE: some batches were not added; the lines above say why (runbook: "A stream job batch was given up")',
    );
  return unsafe ? 1 : 0;
}

function summaryLine(role: RegionRole, s: RecomputeSummary, dryRun: boolean): string {
  if (s.examined === 0) return `summary ${role}: the queue is empty; the totals are whole`;
  const days = new Set(s.totals.map((t) => `${t.merchant}|${t.day}`)).size;
  const done = dryRun
    ? `would add ${s.events} event(s)`
    : `added ${s.recomputed} batch(es), ${s.events} event(s)`;
  return `summary ${role}: examined ${s.examined}, ${done} to ${days} merchant-day(s), left ${s.left.length}`;
}

process.exitCode = await main();
