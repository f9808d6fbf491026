import type { RegionControl, RegionRole } from "@eo/core";
import type { Observed } from "./observe";
import { measureLag, type Numbers } from "./pre-checks";
import type { Progress } from "./progress";
import type { RegionSide } from "./region-side";

/** How the drain waits: the longest lease, the replication margin, and how to sleep. */
export interface DrainSettings {
  canaryTimeoutMs: number;
  /** The least the drain waits, whatever the lag (the handlers' fence cache and a request's deadline). */
  drainFloorMs: number;
  /** The longest the drain waits for in-flight claims to end before it gives up (their leases are seconds). */
  leaseWaitMs: number;
  sleep: (ms: number) => Promise<void>;
}

/** The control that makes `to` active: one epoch above anything either copy holds. */
export function nextControl(obs: Observed, to: RegionRole, reason: string): RegionControl {
  return { active: to, epoch: (obs.latest?.epoch ?? 0) + 1, updated_at: Date.now(), reason };
}

/**
 * A planned switchover: fence the old Region (its copy names the new one, so it refuses writes and stops relaying
 * and running jobs), drain (its leases end; replication catches up, waited at least 10 × the lag measured), then
 * promote. Between the fence and the promotion no Region is active: that gap is the price of never two.
 */
export async function plannedSwitch(
  p: Progress,
  sides: Record<RegionRole, RegionSide>,
  next: RegionControl,
  from: RegionRole,
  numbers: Numbers,
  d: DrainSettings,
): Promise<boolean> {
  const old = sides[from];
  const target = sides[next.active];
  const lag = await p.step(`replication lag ${from} → ${next.active} measured`, async () => {
    numbers.lag_ms = await measureLag(old, target, d.canaryTimeoutMs, d.sleep);
    return { ok: true, detail: `${numbers.lag_ms} ms (canary in the ledger)`, value: numbers.lag_ms };
  });
  if (lag === undefined) return false;
  const fenced = await p.step(`fence ${from} (epoch ${next.epoch})`, async () => {
    const ok = await old.writeControl(next);
    return {
      ok,
      detail: ok ? `${from} now names ${next.active}: it refuses writes` : "a newer control is there already",
    };
  });
  if (!fenced) return false;
  const drained = await p.step(`drain ${from}`, () => drain(old, target, numbers, d));
  if (!drained) return false;
  return Boolean(
    await p.step(`promote ${next.active} (epoch ${next.epoch})`, async () => {
      const ok = await target.writeControl(next);
      return {
        ok,
        detail: ok
          ? `${next.active} takes writes, relays and runs its jobs`
          : "a newer control is there already",
      };
    }),
  );
}

async function drain(old: RegionSide, target: RegionSide, numbers: Numbers, d: DrainSettings) {
  const started = Date.now();
  let open = await old.openClaims(Date.now());
  while (open > 0 && Date.now() - started < d.leaseWaitMs) {
    await d.sleep(250);
    open = await old.openClaims(Date.now());
  }
  if (open > 0) return { ok: false, detail: `${open} claim(s) still in progress after ${d.leaseWaitMs} ms` };
  // A fenced Region's relay still relays its own outbox items: wait for them to go (what stays, the sweep re-sends).
  let backlog = await old.outboxBacklog();
  while (backlog > 0 && Date.now() - started < d.leaseWaitMs) {
    await d.sleep(250);
    backlog = await old.outboxBacklog();
  }
  // A canary written after the fence: once it is here, everything the old Region wrote before it is too.
  const after = await measureLag(old, target, d.canaryTimeoutMs, d.sleep);
  const margin = Math.max(d.drainFloorMs, 10 * (numbers.lag_ms ?? 0)) - (Date.now() - started);
  if (margin > 0) await d.sleep(margin);
  backlog = await old.outboxBacklog();
  return {
    ok: true,
    detail: `leases ended, outbox ${backlog === 0 ? "empty" : `${backlog} item(s) left for ${target.role}'s sweep`}, replication caught up (${after} ms), waited ${Date.now() - started} ms`,
  };
}

/** A forced failover: the old Region does not answer, so it cannot be fenced now; the target is promoted alone. */
export async function forcedSwitch(
  p: Progress,
  sides: Record<RegionRole, RegionSide>,
  next: RegionControl,
  from: RegionRole,
): Promise<boolean> {
  const promoted = await p.step(`promote ${next.active} (epoch ${next.epoch}, forced)`, async () => {
    const ok = await sides[next.active].writeControl(next);
    return { ok, detail: ok ? `${next.active} takes writes` : "a newer control is there already" };
  });
  await p.step(`fence ${from} (best effort)`, async () => {
    const ok = await sides[from].writeControl(next).catch(() => false);
    return {
      ok: true,
      detail: ok
        ? `${from} answered and is fenced`
        : `${from} does not answer: when it does, run this command again before it takes traffic; it fences ${from}`,
    };
  });
  return Boolean(promoted);
}
