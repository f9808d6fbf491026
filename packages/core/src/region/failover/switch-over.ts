import type { RegionRole } from "../../config/switches";
import type { RegionControl } from "../region-control";
import { fenceNowMs } from "./authority-clock";
import { unsafeFenceNoReadBack } from "./failover-test-switches";
import type { Observed } from "./observe";
import { measureLag, type Numbers } from "./pre-checks";
import type { Progress } from "./progress";
import type { FailoverSides, RegionSide } from "./region-side";

/** How the switch waits: the act window, the drain's limits, the replication margin, and how to sleep. */
export interface DrainSettings {
  canaryTimeoutMs: number;
  /** The least the new Region waits before it acts, whatever the lag. */
  drainFloorMs: number;
  /** The longest the drain waits for in-flight claims to end (their leases are seconds). */
  leaseWaitMs: number;
  /**
   * The longest an invocation can act on a read of the authority that has since changed (`actWindowMs`: the
   * control cache, the longest function timeout and the SDK's retries): the new Region acts only this long after
   * the fence.
   */
  actWindowMs: number;
  /** The Regions wait out `active_from` by their clock margin more (a clock running fast): so does the check. */
  clockMarginMs?: number;
  sleep: (ms: number) => Promise<void>;
  /**
   * This machine's clock (default `Date.now`), which `active_from` is stamped and waited out on. The local stack's
   * failover reads the stack's clock, which tests and schedules move forward (`POST /_local/clock`): the Regions'
   * gates compare `active_from` with that clock (region-wiring.ts).
   */
  now?: () => number;
}

const nowOf = (d: Pick<DrainSettings, "now">): number => (d.now ? d.now() : Date.now());

/**
 * EO_TEST_UNSAFE_NO_ACT_WINDOW=1 lets the new Region act at once after the fence, as if no invocation of the old
 * Region could still be acting on a read from before it.
 */
const unsafeNoActWindow = (): boolean => process.env.EO_TEST_UNSAFE_NO_ACT_WINDOW === "1";

/** How long after the fence the new Region may act: the act window, 10 × the lag, and the drain's floor. */
function actAfterMs(d: DrainSettings, lagMs: number): number {
  return unsafeNoActWindow() ? 0 : Math.max(d.actWindowMs, 10 * lagMs, d.drainFloorMs);
}

/** Sleeps until the new Region acts by its own gate: `active_from`, plus the clock margin, plus a beat. */
export async function untilActive(c: RegionControl, d: DrainSettings): Promise<void> {
  await d.sleep(Math.max(0, (c.active_from ?? 0) + (d.clockMarginMs ?? 250) + 100 - nowOf(d)));
}

/** What a switch did, and what it could not yet see arrive. */
export interface Switched {
  control: RegionControl;
  /** What is still arriving (the pending half of exit 3), each with how to finish. */
  pending: string[];
}

/** The control that makes `to` active from `activeFrom`: one epoch above the authority's. */
export function nextControl(
  obs: Observed,
  to: RegionRole,
  reason: string,
  activeFrom: number,
  drains?: RegionRole,
): RegionControl {
  return {
    active: to,
    epoch: (obs.authority?.epoch ?? 0) + 1,
    updated_at: Date.now(),
    reason,
    active_from: activeFrom,
    ...(drains ? { drains } : {}),
  };
}

/**
 * A planned switchover, one write to the authority: it names the new Region (so the old one refuses writes from
 * its next fence read) and the moment the new one may act, which is after the act window and 10 × the lag. Until
 * then the old Region may still relay and deliver what it committed (`drains`); then the drain is checked.
 */
export async function plannedSwitch(
  p: Progress,
  sides: FailoverSides,
  obs: Observed,
  from: RegionRole,
  numbers: Numbers,
  d: DrainSettings,
): Promise<Switched | undefined> {
  const to: RegionRole = from === "primary" ? "standby" : "primary";
  const lag = await p.step(`replication lag ${from} → ${to} measured`, async () => {
    numbers.lag_ms = await measureLag(sides[from], sides[to], d.canaryTimeoutMs, d.sleep);
    return { ok: true, detail: `${numbers.lag_ms} ms (canary in the ledger)`, value: numbers.lag_ms };
  });
  if (lag === undefined) {
    // It answers this machine, yet its writes do not reach its peer: a partition of AWS's shape looks like this.
    p.say(
      `${from} answers this machine, but its canary did not reach ${to}: it may be cut off from ${to} (a partition). Nothing changed. If it is, fail over with --force: ${from} is fenced through the authority, not drained`,
    );
    return undefined;
  }
  const cloudwatch = await recentLatency(p, sides[from], sides[to].region);
  numbers.replication_latency_max_ms = cloudwatch;
  const waitMs = actAfterMs(d, Math.max(lag, cloudwatch ?? 0));
  const now = await fenceNowMs(p, sides.authority, d.clockMarginMs ?? 250, d.now);
  const next = nextControl(
    obs,
    to,
    `planned failover to ${to} at ${new Date().toISOString()}`,
    now + waitMs,
    from,
  );
  const fenced = await fenceThroughAuthority(p, sides, next, from, waitMs);
  if (!fenced) return undefined;
  const pending = (await p.step(`drain ${from} until ${to} takes over`, () =>
    drain(sides[from], sides[to], next, d),
  )) ?? [`${from}'s drain could not be checked`];
  return { control: next, pending };
}

/** The recent maximum ReplicationLatency (AWS), said as a progress line; undefined where there is none. */
async function recentLatency(
  p: Progress,
  old: RegionSide,
  receivingRegion: string,
): Promise<number | undefined> {
  if (!old.recentReplicationLatencyMs) return undefined;
  const ms = await old.recentReplicationLatencyMs(receivingRegion).catch((err: Error) => {
    p.say(
      `  CloudWatch's ReplicationLatency could not be read (${err.message}): the canary's lag alone sets the wait`,
    );
    return undefined;
  });
  if (ms !== undefined) p.say(`  ReplicationLatency, the last 15 min's maximum: ${ms} ms (CloudWatch)`);
  return ms;
}

/**
 * A forced failover: the old Region does not answer, but it is fenced all the same, through the authority, which
 * it must read before it acts; the new Region acts once the act window has passed.
 */
export async function forcedSwitch(
  p: Progress,
  sides: FailoverSides,
  obs: Observed,
  from: RegionRole,
  d: DrainSettings,
): Promise<Switched | undefined> {
  const to: RegionRole = from === "primary" ? "standby" : "primary";
  const waitMs = actAfterMs(d, 0);
  const now = await fenceNowMs(p, sides.authority, d.clockMarginMs ?? 250, d.now);
  const next = nextControl(obs, to, `forced failover to ${to} at ${new Date().toISOString()}`, now + waitMs);
  if (!(await fenceThroughAuthority(p, sides, next, from, waitMs))) return undefined;
  await p.step(`wait out the act window (${waitMs} ms) before ${to} acts`, async () => {
    await untilActive(next, d);
    return {
      ok: true,
      detail: `no invocation of ${from} can still be acting on a read from before the fence`,
    };
  });
  const comesBack = obs.reachable[from]
    ? "arrive only when its partition heals (it answered this machine, forced all the same); it stays passive"
    : "arrive only when it comes back; it comes back passive";
  return {
    control: next,
    pending: [
      `${from}'s last writes that had not replicated (about one lag) ${comesBack}. Then run this command again: it changes nothing and checks that they arrived`,
    ],
  };
}

async function fenceThroughAuthority(
  p: Progress,
  sides: FailoverSides,
  next: RegionControl,
  from: RegionRole,
  waitMs: number,
): Promise<boolean> {
  const ok = await p.step(`fence ${from} through the authority (epoch ${next.epoch})`, async () => {
    const written = (await sides.authority.write(next)) || (await readBackIsOurs(sides, next));
    return written
      ? {
          ok: true,
          detail: `${sides.authority.where} names ${next.active}: ${from} refuses writes from its next read, and ${next.active} acts in ${waitMs} ms`,
        }
      : {
          ok: false,
          detail: "a newer decision is in the authority already: nothing was changed; read it and run again",
        };
  });
  if (!ok) return false;
  // The Regions' own copies decide nothing; they are kept current where they answer, for people reading them.
  for (const role of ["primary", "standby"] as const) {
    const copy = sides[role].writeControl;
    if (!copy) continue;
    const done = await copy(next).catch(() => false);
    p.say(
      `  ${role}'s own copy ${done ? "updated" : "not updated (it does not answer; nothing acts on it)"}`,
    );
  }
  return true;
}

/**
 * Whether the authority holds exactly the record this run wrote: a fence whose reply was lost is sent again by the
 * SDK (or to the authority's next Region), and that second attempt fails its own condition (epoch < ours), so a
 * failed condition is read back (strongly consistent) before it is called "nothing was changed".
 */
async function readBackIsOurs(sides: FailoverSides, next: RegionControl): Promise<boolean> {
  if (unsafeFenceNoReadBack()) return false;
  const now = await sides.authority.read();
  return now?.active === next.active && now.epoch === next.epoch && now.active_from === next.active_from;
}

async function drain(old: RegionSide, target: RegionSide, next: RegionControl, d: DrainSettings) {
  const started = Date.now();
  let open = await old.openClaims(nowOf(d));
  while (open > 0 && Date.now() - started < d.leaseWaitMs) {
    await d.sleep(250);
    open = await old.openClaims(nowOf(d));
  }
  // A canary written after the fence says replication flows; global tables order no writes across items, so it is
  // not proof that every earlier write arrived (what protects then: docs/regions-and-failover.md, "the canary").
  const lag = await measureLag(old, target, d.canaryTimeoutMs, d.sleep).catch(() => undefined);
  await untilActive(next, d);
  const backlog = await old.outboxBacklog();
  const pending: string[] = [];
  if (open > 0)
    pending.push(`${open} claim(s) in ${old.role} were still in progress after ${d.leaseWaitMs} ms`);
  if (lag === undefined)
    pending.push(
      `a canary from ${old.role} did not reach ${target.role}: replication is behind; run this command again to check`,
    );
  return {
    ok: true,
    detail: `leases ${open === 0 ? "ended" : `${open} still open`}, outbox ${backlog === 0 ? "empty" : `${backlog} item(s) left for ${target.role}'s sweep`}, replication ${lag === undefined ? "NOT caught up" : `caught up (${lag} ms)`}, waited ${Date.now() - started} ms`,
    value: pending,
  };
}
