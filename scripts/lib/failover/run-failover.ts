import type { RegionRole } from "@eo/core";
import { describe, type Observed, observe } from "./observe";
import { type Numbers, preChecks } from "./pre-checks";
import type { Progress } from "./progress";
import type { RegionSide } from "./region-side";
import { type ResumeSettings, resume, verify } from "./resume-and-verify";
import { type DrainSettings, forcedSwitch, nextControl, plannedSwitch } from "./switch-over";

/** What the command was asked to do. */
export interface FailoverRequest {
  to: RegionRole;
  dryRun: boolean;
  force: boolean;
}

/** What the run came to, for the exit code and the JSON report. */
export interface FailoverOutcome {
  code: 0 | 1;
  mode: "planned" | "forced" | "fence-only" | "already-active" | "refused";
  from: RegionRole;
  to: RegionRole;
  epoch?: number;
  numbers: Numbers;
  unverified: string[];
  dryRun: boolean;
}

const other = (r: RegionRole): RegionRole => (r === "primary" ? "standby" : "primary");

/** Fails over to `to`: observes, checks, switches (planned, forced or fence-only), resumes and verifies. */
export async function runFailover(
  p: Progress,
  sides: Record<RegionRole, RegionSide>,
  req: FailoverRequest,
  settings: DrainSettings & ResumeSettings,
): Promise<FailoverOutcome> {
  const from = other(req.to);
  const obs = await observe(sides);
  p.say(`primary: ${obs.reachable.primary ? describe(obs.copies.primary) : "does not answer"}`);
  p.say(`standby: ${obs.reachable.standby ? describe(obs.copies.standby) : "does not answer"}`);
  const base = { from, to: req.to, numbers: {}, unverified: [], dryRun: req.dryRun };
  const mode = modeOf(obs, req, from);
  if (mode === "refused" || !obs.reachable[req.to]) {
    p.say(refusal(obs, req, from));
    return { ...base, code: 1, mode: "refused" };
  }
  const checks = await preChecks(p, sides, req.to, from, obs.reachable[from]);
  if (!checks.ok) return { ...base, numbers: checks.numbers, code: 1, mode: "refused" };
  if (mode === "already-active") return fenceOnly(p, sides, obs, req, base, checks.numbers);
  const next = nextControl(obs, req.to, `${mode} failover to ${req.to} at ${new Date().toISOString()}`);
  if (req.dryRun) {
    printPlan(p, mode, next.epoch, from, req.to, checks.numbers);
    return { ...base, numbers: checks.numbers, code: 0, mode, epoch: next.epoch };
  }
  if (mode === "forced") printForcedWarning(p, from);
  const switched =
    mode === "planned"
      ? await plannedSwitch(p, sides, next, from, checks.numbers, settings)
      : await forcedSwitch(p, sides, next, from);
  if (!switched) return { ...base, numbers: checks.numbers, code: 1, mode, epoch: next.epoch };
  const resumed = await resume(p, sides[req.to], settings);
  const missing = (await verify(p, sides[req.to], settings)) ?? [];
  const ok = resumed && missing.length === 0 && p.steps.every((s) => s.ok);
  return { ...base, numbers: checks.numbers, code: ok ? 0 : 1, mode, epoch: next.epoch, unverified: missing };
}

function modeOf(obs: Observed, req: FailoverRequest, from: RegionRole): FailoverOutcome["mode"] {
  if (obs.latest?.active === req.to && obs.copies[req.to]?.epoch === obs.latest.epoch)
    return "already-active";
  if (obs.reachable[from]) return "planned";
  return req.force ? "forced" : "refused";
}

function refusal(obs: Observed, req: FailoverRequest, from: RegionRole): string {
  if (!obs.reachable[req.to]) return `refused: the target ${req.to} does not answer; nothing changed`;
  return `refused: the old ${from} does not answer, so it cannot be fenced or drained. A forced failover needs --force (read what it makes safe first: --dry-run --force); nothing changed`;
}

/** The target is active already; if the other copy still names the old Region, it is fenced now. */
async function fenceOnly(
  p: Progress,
  sides: Record<RegionRole, RegionSide>,
  obs: Observed,
  req: FailoverRequest,
  base: Omit<FailoverOutcome, "code" | "mode">,
  numbers: Numbers,
): Promise<FailoverOutcome> {
  const latest = obs.latest;
  const from = base.from;
  const stale = obs.reachable[from] && (obs.copies[from]?.epoch ?? 0) < (latest?.epoch ?? 0);
  if (!stale || !latest) {
    p.say(`${req.to} is active already (epoch ${latest?.epoch}); nothing to do`);
    return { ...base, numbers, code: 0, mode: "already-active", epoch: latest?.epoch };
  }
  if (req.dryRun) {
    p.say(
      `plan: write epoch ${latest.epoch} into ${from}'s copy, which still names ${obs.copies[from]?.active ?? "nobody"}`,
    );
    return { ...base, numbers, code: 0, mode: "fence-only", epoch: latest.epoch };
  }
  const ok = await p.step(`fence ${from} (epoch ${latest.epoch})`, async () => {
    const done = await sides[from].writeControl(latest);
    return {
      ok: done,
      detail: done ? `${from} now names ${latest.active}` : "a newer control is there already",
    };
  });
  return { ...base, numbers, code: ok ? 0 : 1, mode: "fence-only", epoch: latest.epoch };
}

function printPlan(
  p: Progress,
  mode: string,
  epoch: number,
  from: RegionRole,
  to: RegionRole,
  n: Numbers,
): void {
  const steps =
    mode === "planned"
      ? [
          `measure the replication lag ${from} → ${to} with a canary item (writes and deletes one ledger item)`,
          `fence ${from}: write {active: ${to}, epoch: ${epoch}} into its control; it refuses writes within its fence cache`,
          `drain ${from}: wait for its ${n.open_claims ?? "?"} in-flight claim(s) to end and replication to catch up (at least 10 × the lag); its ${n.outbox_backlog ?? "?"} outbox item(s) relay or are left for ${to}'s sweep`,
          `promote ${to}: write {active: ${to}, epoch: ${epoch}} into its control`,
        ]
      : [
          `promote ${to}: write {active: ${to}, epoch: ${epoch}} into its control (${from} cannot be fenced now)`,
        ];
  steps.push(
    `resume in ${to}: run its resolver (derived PSP keys) and outbox sweep (stored event ids) until nothing is unknown`,
    `verify: every PSP charge of the last hours has a payment row in ${to}`,
  );
  p.say(`dry run, ${mode} failover ${from} → ${to}; the plan (nothing was changed):`);
  for (const [i, s] of steps.entries()) p.say(`  ${i + 1}. ${s}`);
  if (mode === "forced") printForcedWarning(p, from);
}

function printForcedWarning(p: Progress, from: RegionRole): void {
  for (const line of [
    `forced: ${from} is not fenced and not drained. What the derived ids make safe:`,
    "  - a charge replayed by the resolver or a phone's retry uses {payment_id}:charge: the PSP answers with the same charge",
    "  - an event re-sent from the outbox carries {payment_id}:{STATE}: the worker's inbox applies it once",
    "  - a push re-sent replaces the one shown (replace id = payment_id)",
    "What may repeat or wait:",
    `  - ${from}'s last writes not yet replicated (about one lag) are not here until it recovers: a payment taken there`,
    "    then is unknown or absent here until the phone retries (same key) or the Region comes back",
    "  - an email sent there whose SENT mark had not replicated is sent once more from here",
    `  - when ${from} answers again, run this command again before it takes traffic: it fences ${from}`,
  ])
    p.say(line);
}
