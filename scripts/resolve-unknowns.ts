import { parseArgs } from "node:util";
import {
  type ActiveRegion,
  inheritedAcrossFailover,
  listUnsettled,
  loadConfig,
  paymentDeps,
  pspSecret,
  RESOURCE_ENV,
  type RegionControl,
  regionGate,
  settleUnknowns,
  unsafeOperatorResolverChecksOnce,
} from "@eo/core";
import { adoptLocalStackClock, localTargetsOf } from "./lib/failover/local-targets";
import { refusalOf } from "./lib/script-env";
import { regionToActOn } from "./lib/target/authority";
import { findTarget } from "./lib/target/find-target";
import { pspFor } from "./lib/target/psp-access";
import { resolverEnvironment } from "./lib/target/resolver-env";
import { TargetError } from "./lib/target/target";
import {
  chooseTarget,
  REGION_OPTION,
  REGION_USAGE,
  regionFlag,
  TARGET_OPTIONS,
  TARGET_USAGE,
} from "./lib/target/target-args";

// The resolver, run by hand (for example after a PSP outage, at 3 a.m.): settles unknown and stale
// payments and refunds with their derived keys, under the resolver's own PSP rate cap.
//   npm run resolve-unknowns -- --local|--stage <s> [--region primary|standby] [--dry-run] [--limit 100]
// It acts in the Region the authority names active (or --region's), with the environment the stage's resolver
// function has (its tables, queue, claim mode, tunables) built from the target; `--env` reads that environment from
// the variables instead: AWS_REGION, REGION_ROLE, CLAIM_MODE (home or mrsc), the table names, EVENTS_QUEUE_URL,
// PSP_URL and the PSP API key (PSP_API_KEY, or the linked PspApiKey under `sst shell`).
// As the resolver function does, it acts only while the authority, read before each PSP call, names its Region under
// the epoch it began with (from `active_from` on), and it stops acting at --max-seconds (default 25, within the act
// window a failover waits out): no Lambda timeout bounds a laptop that sleeps in the middle of a pass.
// Exit codes: 0 all examined payments settled (or, with --dry-run, listed); 1 some stayed unknown, an anomaly
// (the PSP charged a FAILED payment) is listed, the rate cap stopped the pass (run it again later), or the pass
// stopped at its time bound or found its Region passive mid-pass; 2 usage, no target or an odd environment, or the
// Region is passive (not named, or not yet from its `active_from`: nothing called, nothing changed).
const usage = `usage: npm run resolve-unknowns -- --local|--stage <s> [--region <role>] [--dry-run] [--limit <n>] [--max-seconds <s>]
${TARGET_USAGE}
${REGION_USAGE}
  --env                instead of --local/--stage: the resolver function's environment from the variables
  --dry-run            list what would be replayed; call nothing, change nothing
  --limit <n>          at most n payments per state (default 100)
  --max-seconds <s>    call the PSP for no row after s seconds from the start (default 25); the rest is left`;

/** Puts the target Region's resolver environment in place (before any client is made); undefined with --env. */
async function useTarget(v: { local?: boolean; stage?: string; env?: boolean; region?: string }) {
  const target = await findTarget(chooseTarget(v, v.env));
  if (!target) {
    if (v.region !== undefined) throw new TargetError("refused: --region goes with --local or --stage");
    return undefined;
  }
  const psp = pspFor(target);
  const { role, why } = await regionToActOn(target, regionFlag(v.region));
  // Variables of another run in this shell must not steer where the resolver's clients go.
  for (const k of ["CONTROL_TABLE_REGION", "CLAIM_TABLE_REGION", "CONTROL_ENDPOINT_URL"])
    delete process.env[k];
  Object.assign(process.env, resolverEnvironment(target, role, psp));
  // The local stack's clock may have been moved: the gate compares `active_from` on it (region-wiring.ts).
  if (target.local) await adoptLocalStackClock(localTargetsOf(target));
  return `the ${role} Region (${target.regions[role].region}; ${why}) of ${target.where}`;
}

async function main(): Promise<number> {
  const { values: v } = parseArgs({
    options: {
      ...TARGET_OPTIONS,
      ...REGION_OPTION,
      env: { type: "boolean", default: false },
      "dry-run": { type: "boolean", default: false },
      limit: { type: "string", default: "100" },
      "max-seconds": { type: "string", default: "25" },
      help: { type: "boolean", default: false },
    },
  });
  const limit = Number(v.limit);
  const maxSeconds = Number(v["max-seconds"]);
  const startedAt = Date.now();
  if (v.help || !Number.isInteger(limit) || limit < 1 || !(maxSeconds >= 0)) {
    console.error(usage);
    return v.help ? 0 : 2;
  }
  let where: string | undefined;
  try {
    where = await useTarget(v);
  } catch (err) {
    if (!(err instanceof TargetError)) throw err;
    console.error(`${err.message}\n${usage}`);
    return 2;
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
  const gate = regionGate(deps.config);
  const control = await activeControl(gate, deps.config.regionRole);
  if (!control) return 2;
  const rows = await listUnsettled(deps, limit);
  console.log(
    `${rows.length} payment(s) to examine in ${where ?? `${deps.config.region} (from the environment)`}, ledger ${deps.config.ledgerTable}`,
  );
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
  const recheck = stillActing(gate, control, startedAt + maxSeconds * 1000);
  const report = await settleUnknowns(deps, {
    limit,
    epoch: control.epoch,
    ...(unsafeOperatorResolverChecksOnce() ? {} : { stillActive: recheck.stillActive }),
    onProgress: (e) => {
      n += 1;
      console.log(`  [${n}/${rows.length}] ${e.payment_id}  ${e.from} -> ${e.to}`);
    },
  });
  for (const a of report.anomalies)
    console.log(
      `  ANOMALY ${a.payment_id}  ${a.state}  ${a.kind}  PSP charge ${a.psp_charge}: act on it (docs/runbook.md, Anomalies)`,
    );
  console.log(
    `summary: examined ${report.examined}, settled ${report.settled.length}, still unknown ${report.unresolved.length}` +
      `, anomalies ${report.anomalies.length}` +
      (report.rateLimited ? ", stopped by the rate cap (run again)" : "") +
      (report.stoppedPassive ? `, ${recheck.why() || (await refusedWhy(gate, control))}` : ""),
  );
  const stopped = report.rateLimited || report.stoppedPassive === true;
  return report.unresolved.length > 0 || report.anomalies.length > 0 || stopped ? 1 : 0;
}

/** The control if a read made now lets this Region act (its `active_from` passed); else says why, undefined. */
async function activeControl(gate: ActiveRegion, role: string): Promise<RegionControl | undefined> {
  if (unsafeOperatorResolverChecksOnce()) {
    const once = await gate.control();
    if (once?.active === role) return once;
  }
  const control = await gate.activeNow();
  if (control) return control;
  const seen = await gate.controlNow().catch(() => undefined);
  const why = !seen
    ? "no Region control record"
    : seen.active === role
      ? `it takes over at ${new Date(seen.active_from ?? 0).toISOString()} (epoch ${seen.epoch})`
      : `the ${seen.active} Region is active (epoch ${seen.epoch})`;
  console.error(`this Region (${role}) is passive: ${why}; resolve in the active Region`);
  return undefined;
}

/**
 * Why a pass stopped when a fenced ledger write, not the re-check before a PSP call, found this Region passive: the
 * authority moved while a call was out (a failover in the middle of the pass), and may have moved back since.
 */
async function refusedWhy(gate: ActiveRegion, control: RegionControl): Promise<string> {
  const now = await gate.controlNow().catch(() => undefined);
  const where = now ? `is at epoch ${now.epoch}, the run began at ${control.epoch}` : "cannot be read";
  return `stopped: this Region is passive now (a ledger write was refused by the fence; the authority ${where}); resolve in the active Region`;
}

/**
 * Asked before each PSP call, as the resolver function asks: whether the authority read now still names this Region
 * under the epoch the run began with, and whether the run is still within its time bound.
 */
function stillActing(gate: ActiveRegion, control: RegionControl, untilMs: number) {
  let why = "";
  const stillActive = async () => {
    if (Date.now() >= untilMs) {
      why = `stopped at its time bound (--max-seconds) with rows left: run it again`;
      return false;
    }
    const now = await gate.activeNow().catch(() => undefined);
    if (now?.epoch === control.epoch) return true;
    why = `stopped: this Region is passive now (the authority ${now ? `moved to epoch ${now.epoch}` : "no longer names it"}); resolve in the active Region`;
    return false;
  };
  return { stillActive, why: () => why };
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`resolve-unknowns failed: ${err.message}`);
    process.exit(2);
  },
);
