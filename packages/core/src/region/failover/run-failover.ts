import type { RegionRole } from "../../config/switches";
import { unsafeForceIgnoredWhenReachable } from "./failover-test-switches";
import { describe, type Observed, observe } from "./observe";
import { type Numbers, preChecks } from "./pre-checks";
import type { Progress } from "./progress";
import type { FailoverSides } from "./region-side";
import { type ResumeSettings, resume, verify } from "./resume-and-verify";
import { type DrainSettings, forcedSwitch, plannedSwitch, untilActive } from "./switch-over";
import { printForcedWarning, printPlan } from "./the-plan";

/** What the command was asked to do. */
export interface FailoverRequest {
  to: RegionRole;
  dryRun: boolean;
  force: boolean;
}

/** The command's exit codes (contract): done and verified, refused or unsafe, usage, done but pending. */
export type FailoverCode = 0 | 1 | 2 | 3;

/** What the run came to, for the exit code and the JSON report. */
export interface FailoverOutcome {
  code: FailoverCode;
  mode: "planned" | "forced" | "already-active" | "refused";
  from: RegionRole;
  to: RegionRole;
  epoch?: number;
  numbers: Numbers;
  /** What is still arriving, each with how to finish (exit 3). */
  pending: string[];
  /** Charges the PSP made whose row in the new Region is missing or disagrees with it. */
  unverified: string[];
  /** Why nothing was verified (the PSP's charges could not be listed); the run is then not done (exit 3). */
  notVerified?: string;
  dryRun: boolean;
}

const other = (r: RegionRole): RegionRole => (r === "primary" ? "standby" : "primary");

/** Fails over to `to`: observes, checks, fences through the authority, waits, resumes and verifies. */
export async function runFailover(
  p: Progress,
  sides: FailoverSides,
  req: FailoverRequest,
  settings: DrainSettings & ResumeSettings,
): Promise<FailoverOutcome> {
  const from = other(req.to);
  const obs = await observe(sides);
  p.say(
    `authority (${sides.authority.where}): ${obs.authorityError ? `CANNOT BE READ: ${obs.authorityError}` : describe(obs.authority)}`,
  );
  for (const r of ["primary", "standby"] as const)
    p.say(`${r}: ${obs.reachable[r] ? "answers" : "does not answer"} (${obs.health[r]})`);
  const base = { from, to: req.to, numbers: {}, pending: [], unverified: [], dryRun: req.dryRun };
  const refused = refusal(obs, req, from);
  if (refused) {
    p.say(refused);
    return { ...base, code: 1, mode: "refused" };
  }
  const mode = modeOf(obs, req, from);
  const checks = await preChecks(p, sides, req.to, from, obs.reachable[from]);
  if (!checks.ok) return { ...base, numbers: checks.numbers, code: 1, mode: "refused" };
  const numbers = checks.numbers;
  if (req.dryRun) {
    printPlan(p, mode, (obs.authority?.epoch ?? 0) + 1, from, req.to, numbers, settings.actWindowMs, {
      oldAnswers: obs.reachable[from],
    });
    return { ...base, numbers, code: 0, mode, epoch: obs.authority?.epoch };
  }
  let pending: string[] = [];
  let epoch = obs.authority?.epoch;
  if (mode === "already-active") {
    if (obs.authority) await untilActive(obs.authority, settings);
    p.say(
      `${req.to} is named by the authority already (epoch ${epoch}): nothing to switch; resuming and checking`,
    );
  } else {
    if (mode === "forced") printForcedWarning(p, from, req.to, obs.reachable[from]);
    const switched =
      mode === "planned"
        ? await plannedSwitch(p, sides, obs, from, numbers, settings)
        : await forcedSwitch(p, sides, obs, from, settings);
    if (!switched) return { ...base, numbers, code: 1, mode };
    pending = switched.pending;
    epoch = switched.control.epoch;
  }
  const notResumed = await resume(p, sides[req.to], settings);
  if (notResumed) pending.push(notResumed);
  const verified = await verify(p, sides[req.to], settings);
  const missing = "disagree" in verified ? verified.disagree : [];
  if (missing.length > 0)
    pending.push(
      `${missing.length} PSP charge(s) have no row in ${req.to} that agrees yet: the old Region's replication or the phones' retries bring missing rows; a state that stays wrong is for a person (docs/runbook.md, Anomalies); run this command again to check`,
    );
  const notVerified = "skipped" in verified ? verified.skipped : undefined;
  if (notVerified) pending.push(`${notVerified}; run this command again with them to verify`);
  const failedStep = p.steps.some((s) => !s.ok);
  const code: FailoverCode = pending.length > 0 || failedStep ? 3 : 0;
  return {
    ...base,
    numbers,
    code,
    mode,
    epoch,
    pending,
    unverified: missing,
    ...(notVerified ? { notVerified } : {}),
  };
}

/**
 * Forced whenever --force is given: an old Region that answers the operator may still be cut off from its peer and
 * from the authority (AWS's partition), and then the planned path's canary never arrives.
 */
function modeOf(obs: Observed, req: FailoverRequest, from: RegionRole): FailoverOutcome["mode"] {
  if (obs.authority?.active === req.to) return "already-active";
  if (req.force && !unsafeForceIgnoredWhenReachable()) return "forced";
  return obs.reachable[from] ? "planned" : "forced";
}

/** Why the command must change nothing, if it must: an unreadable authority, a dead target, an unforced old Region. */
function refusal(obs: Observed, req: FailoverRequest, from: RegionRole): string | undefined {
  if (obs.authorityError !== undefined)
    return "refused: the Region authority cannot be read, so nothing can be switched safely (while it is unreachable from both Regions nothing takes writes: see the runbook); nothing changed";
  if (!obs.authority)
    return "refused: the authority holds no control record (deploy writes the first one); nothing changed";
  if (!obs.reachable[req.to]) return `refused: the target ${req.to} does not answer; nothing changed`;
  if (obs.authority.active !== req.to && !obs.reachable[from] && !req.force)
    return `refused: the old ${from} does not answer, so it cannot be drained. A forced failover needs --force (read what it makes safe first: --dry-run --force); nothing changed`;
  return undefined;
}
