/**
 * Moves the active Region: `npm run failover -- --to standby|primary [--dry-run] [--force] [--local] [--json]`.
 * A data-plane switch (DynamoDB and Lambda Invoke only, never a deploy): one write to the Region authority fences the
 * old Region and names the new one from the end of the act window; then the drain is checked, the new Region's
 * resolver and outbox sweep run, and every recent PSP charge is checked for a row.
 * Exit codes: 0 done and verified (or, with --dry-run, the plan printed); 3 done but verification pending (what is
 * still arriving is named, with how to finish); 1 refused or unsafe (a failed pre-check changes nothing); 2 usage.
 */
import { parseArgs } from "node:util";
import { actWindowMs, loadTunables, type RegionRole } from "@eo/core";
import { awsSides, awsTargets } from "./lib/failover/aws-sides";
import { LOCAL_FAILOVER_SETTINGS, localSides, localTargets } from "./lib/failover/local-sides";
import { Progress } from "./lib/failover/progress";
import type { FailoverSides } from "./lib/failover/region-side";
import { runFailover } from "./lib/failover/run-failover";

const usage = `usage: npm run failover -- --to standby|primary [--dry-run] [--force] [--local] [--json]
  --to <region>        the Region to make active (primary or standby)
  --dry-run            print the plan and the pre-checks' numbers; change nothing
  --force              fail over although the old Region does not answer (it is fenced through the authority, not drained)
  --local              the local stack (ports from API_PORT, STANDBY_API_PORT, DYNAMODB_PORT, PSP_PORT)
  --outputs <file>     AWS: the stage's SST outputs (default .sst/outputs.json), with each Region's tables and jobs
  --verify-hours <h>   check the PSP's charges of the last h hours (default 6; needs PSP_URL and PSP_API_KEY in AWS)
  --json               print a JSON report on stdout (progress goes to stderr)`;

function parse() {
  try {
    const { values } = parseArgs({
      options: {
        to: { type: "string" },
        "dry-run": { type: "boolean", default: false },
        force: { type: "boolean", default: false },
        local: { type: "boolean", default: false },
        json: { type: "boolean", default: false },
        outputs: { type: "string", default: ".sst/outputs.json" },
        "verify-hours": { type: "string", default: "6" },
        help: { type: "boolean", default: false },
      },
    });
    const hours = Number(values["verify-hours"]);
    if (values.help || (values.to !== "primary" && values.to !== "standby") || !(hours > 0)) return undefined;
    return { ...values, to: values.to as RegionRole, hours };
  } catch {
    return undefined;
  }
}

function sidesFor(local: boolean, outputs: string): FailoverSides {
  return local ? localSides(localTargets()) : awsSides(awsTargets(outputs));
}

function pspOf(local: boolean) {
  const url = process.env.PSP_URL ?? (local ? `http://127.0.0.1:${process.env.PSP_PORT || 3001}` : undefined);
  const apiKey = process.env.PSP_API_KEY ?? (local ? "sk_local" : undefined);
  return url && apiKey ? { url, apiKey } : undefined;
}

async function main(): Promise<number> {
  const args = parse();
  if (!args) {
    console.error(usage);
    return process.argv.includes("--help") ? 0 : 2;
  }
  const p = new Progress(args.json ? (l) => console.error(l) : (l) => console.log(l));
  let sides: FailoverSides;
  try {
    sides = sidesFor(args.local, args.outputs);
  } catch (err) {
    console.error(`refused: ${(err as Error).message}`);
    return 2;
  }
  p.say(
    `failover to ${args.to}${args["dry-run"] ? " (dry run)" : ""}${args.force ? " (forced)" : ""}, ${args.local ? "local stack" : `AWS (${args.outputs})`}`,
  );
  const outcome = await runFailover(
    p,
    sides,
    { to: args.to, dryRun: args["dry-run"], force: args.force },
    {
      canaryTimeoutMs: 20_000,
      drainFloorMs: 2_000,
      // The deployment's tunables as its functions read them (the same variables and defaults).
      actWindowMs: args.local ? LOCAL_FAILOVER_SETTINGS.actWindowMs : actWindowMs(loadTunables(process.env)),
      clockMarginMs: loadTunables(process.env).clockMarginMs,
      leaseWaitMs: 30_000,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      rounds: 5,
      psp: pspOf(args.local),
      verifyHours: args.hours,
    },
  );
  const verdict = {
    0: outcome.dryRun ? "PLAN ONLY, nothing changed" : "DONE, verified",
    1: "REFUSED or UNSAFE",
    2: "USAGE",
    3: "DONE, verification PENDING",
  }[outcome.code];
  const log = args.json ? (l: string) => console.error(l) : (l: string) => console.log(l);
  log(p.summary());
  for (const line of outcome.pending) log(`  pending: ${line}`);
  log(
    `result: ${verdict} (${outcome.mode}, ${outcome.from} → ${outcome.to}${outcome.epoch ? `, epoch ${outcome.epoch}` : ""}); exit ${outcome.code}`,
  );
  if (args.json) console.log(JSON.stringify({ ...outcome, steps: p.steps }, null, 2));
  return outcome.code;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`failover failed unexpectedly: ${(err as Error).stack ?? err}`);
    process.exit(1);
  },
);
