import { advanceClock, clock, type RegionRole } from "@eo/core";
import type { LocalTargets } from "../../../packages/local/src/region/local-sides";
import type { Target } from "../target/target";

/** The failover's view of the local stack as the shared target finds it (`--local`: its ports). */
export function localTargetsOf(t: Target): LocalTargets {
  const api = (role: RegionRole) => t.regions[role].api ?? "";
  if (!t.local) throw new Error(`${t.where} is not the local stack`);
  return {
    dynamodb: t.local.dynamodb,
    apis: { primary: api("primary"), standby: api("standby") },
    regions: { primary: t.regions.primary.region, standby: t.regions.standby.region },
    authorityRegion: t.authority.regions[0],
  };
}

/**
 * The local stack's clock as this process reads it (`GET /_local/clock` on whichever API answers), so that
 * `active_from` is stamped on the clock its Regions compare it with even after tests moved it; this process's own
 * clock when neither answers.
 */
export async function localStackClock(t: LocalTargets): Promise<() => number> {
  for (const api of [t.apis.primary, t.apis.standby].filter(Boolean)) {
    const stackNow = await clockReadOver(async () => {
      const res = await fetch(`${api}/_local/clock`, { signal: AbortSignal.timeout(3_000) }).catch(
        () => undefined,
      );
      return res?.ok ? ((await res.json()) as { now: number }).now : undefined;
    });
    if (stackNow) return stackNow;
  }
  return Date.now;
}

/**
 * A clock read once over the wire, kept by its offset from this process's clock at the reply's midpoint;
 * undefined when `readNow` answers nothing.
 */
export async function clockReadOver(
  readNow: () => Promise<number | undefined>,
): Promise<(() => number) | undefined> {
  const sent = Date.now();
  const now = await readNow();
  if (now === undefined) return undefined;
  const offsetMs = now - Math.round((sent + Date.now()) / 2);
  return () => Date.now() + offsetMs;
}

/**
 * Moves this process's clock to the local stack's (tests move the stack's forward), so that a script acting on the
 * stack's tables compares `active_from` and deadlines on the clock its Regions use.
 */
export async function adoptLocalStackClock(t: LocalTargets): Promise<void> {
  const stackNow = await localStackClock(t);
  const behindMs = stackNow() - clock.now();
  // Only forward, as the stack's clock moves; a few ms either way are the request's own time.
  if (behindMs > 1_000) advanceClock(behindMs);
}
