/**
 * Moves the active Region: `npm run failover -- --to standby|primary [--dry-run] [--force] [--local|--stage <s>] [--json]`.
 * A data-plane switch (DynamoDB and Lambda Invoke only, never a deploy): one write to the Region authority fences the
 * old Region and names the new one from the end of the act window; then the drain is checked, the new Region's
 * resolver and outbox sweep run, and every recent PSP charge is checked against its row (state, refund, amount).
 * Exit codes: 0 done and verified (or, with --dry-run, the plan printed); 3 switched but NOT verified or pending (a
 * verify skipped without the PSP's secrets, a target job that answered passive, a row that disagrees with the PSP,
 * what is still arriving: each named, with how to finish); 1 refused or unsafe (a failed pre-check changes nothing);
 * 2 usage.
 */
import { parseArgs } from "node:util";
import { loadTunables, type RegionRole } from "@eo/core";
import { awsSides, type FailoverSides, Progress, runFailover } from "@eo/core/failover";
import { localSides } from "../packages/local/src/region/local-sides";
import { deployedActWindow } from "./lib/failover/deployed-act-window";
import { localStackClock, localTargetsOf } from "./lib/failover/local-targets";
import { targetAuthority } from "./lib/target/authority";
import { dynamoIn } from "./lib/target/clients";
import { findTarget } from "./lib/target/find-target";
import { pspFor } from "./lib/target/psp-access";
import { type Target, TargetError } from "./lib/target/target";
import { chooseTarget, TARGET_OPTIONS, TARGET_USAGE } from "./lib/target/target-args";

const usage = `usage: npm run failover -- --to standby|primary [--dry-run] [--force] [--local|--stage <s>] [--json]
  --to <region>        the Region to make active (primary or standby)
  --dry-run            print the plan and the pre-checks' numbers; change nothing
  --force              fail over without draining the old Region: it does not answer, or answers you but is cut off
                       from its peer (it is fenced through the authority, not drained)
${TARGET_USAGE}
  --outputs <file>     alone: a stage's outputs file as it is, its stage unchecked
  --verify-hours <h>   check the PSP's charges of the last h hours (default 6)
  --json               print a JSON report on stdout (progress goes to stderr)
exit: 0 done and verified (or the plan printed); 3 switched, NOT verified or pending (each named); 1 refused or
      unsafe; 2 usage`;

function parse() {
  try {
    const { values } = parseArgs({
      options: {
        ...TARGET_OPTIONS,
        to: { type: "string" },
        "dry-run": { type: "boolean", default: false },
        force: { type: "boolean", default: false },
        json: { type: "boolean", default: false },
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

/** The stage or outputs file's sides, or the local stack's; `outputs` alone is the explicit way. */
async function targetOf(args: NonNullable<ReturnType<typeof parse>>): Promise<Target> {
  const explicit = args.outputs !== undefined && args.stage === undefined && !args.local;
  const t = await findTarget(chooseTarget(args, explicit));
  if (!t) throw new TargetError("refused: no target");
  return t;
}

function sidesFor(t: Target): FailoverSides {
  if (t.local) return localSides(localTargetsOf(t));
  return awsSides({
    where: t.where,
    regions: t.regions,
    authority: targetAuthority(t),
    dynamoIn: (region) => dynamoIn(t, region),
  });
}

/** The PSP, to verify with; a stage without its secrets at hand verifies nothing and says so. */
function pspOf(t: Target) {
  try {
    return pspFor(t);
  } catch {
    return undefined;
  }
}

async function main(): Promise<number> {
  const args = parse();
  if (!args) {
    console.error(usage);
    return process.argv.includes("--help") ? 0 : 2;
  }
  const p = new Progress(args.json ? (l) => console.error(l) : (l) => console.log(l));
  let target: Target;
  let sides: FailoverSides;
  try {
    target = await targetOf(args);
    sides = sidesFor(target);
  } catch (err) {
    if (!(err instanceof TargetError)) throw err;
    console.error(`${err.message}\n${usage}`);
    return 2;
  }
  p.say(
    `failover to ${args.to}${args["dry-run"] ? " (dry run)" : ""}${args.force ? " (forced)" : ""}, ${target.where}`,
  );
  const actWindow = deployedActWindow(target);
  if (actWindow.note) p.say(`note: ${actWindow.note}`);
  const outcome = await runFailover(
    p,
    sides,
    { to: args.to, dryRun: args["dry-run"], force: args.force },
    {
      canaryTimeoutMs: 20_000,
      drainFloorMs: 2_000,
      // The stage's own act window (its outputs name its longest acting timeout), not this shell's defaults.
      actWindowMs: actWindow.ms,
      clockMarginMs: loadTunables(process.env).clockMarginMs,
      leaseWaitMs: 30_000,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      rounds: 5,
      psp: pspOf(target),
      verifyHours: args.hours,
      ...(target.local ? { now: await localStackClock(localTargetsOf(target)) } : {}),
    },
  );
  // A run that found the target named already switched nothing: it checked.
  const notDone = outcome.mode === "already-active" ? "checked" : "switched";
  const verdict = {
    0: outcome.dryRun ? "PLAN ONLY, nothing changed" : "DONE, verified",
    1: "REFUSED or UNSAFE",
    2: "USAGE",
    3: outcome.notVerified ? `${notDone}, NOT verified` : "DONE, verification PENDING",
  }[outcome.code];
  const log = args.json ? (l: string) => console.error(l) : (l: string) => console.log(l);
  log(p.summary());
  if (outcome.notVerified) log(`  ${notDone}, NOT verified: ${outcome.notVerified}`);
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
