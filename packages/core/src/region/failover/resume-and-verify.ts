import type { PspAccess } from "../../config/psp-access";
import type { PspChargeRecord } from "../../reconcile/compare-records";
import { pspCharges } from "../../reconcile/http-psp-charges";
import { stripePspCharges } from "../../reconcile/stripe-psp-charges";
import {
  unsafeResumeIgnoresPassive,
  unsafeSkippedVerifyIsDone,
  unsafeVerifyPresenceOnly,
} from "./failover-test-switches";
import { judgeCharge } from "./judge-charge";
import type { Progress } from "./progress";
import type { RegionSide } from "./region-side";

/** How the new Region is resumed and checked. */
export interface ResumeSettings {
  rounds: number;
  psp?: PspAccess;
  verifyHours: number;
}

/**
 * Runs the new Region's resolver (derived PSP keys) and outbox sweep (stored event ids) until nothing is unknown
 * and nothing is left to re-send, or their caps stop them; both are safe to repeat. Answers what is still pending
 * (a job that answered passive did nothing: that is named), or undefined when the Region resumed.
 */
export async function resume(
  p: Progress,
  target: RegionSide,
  s: ResumeSettings,
): Promise<string | undefined> {
  let pending = `payments still unknown in ${target.role}: its resolver goes on by itself; run this command again to check`;
  const ok = await p.step(`resume in ${target.role}`, async () => {
    let settled = 0;
    let resent = 0;
    for (let round = 1; round <= s.rounds; round++) {
      const resolver = await target.runResolver();
      const sweeps = await target.runSweeps();
      const passive = passiveJobs(resolver, sweeps);
      if (passive) {
        pending = `${target.role}'s ${passive} answered passive: it does not act on the authority's record yet, so nothing was resumed there; read GET /regions (or the authority) and run this command again`;
        return { ok: false, detail: `${passive} in ${target.role} answered passive: NOT resumed` };
      }
      settled += Array.isArray(resolver.settled) ? resolver.settled.length : Number(resolver.settled ?? 0);
      const sent = Number((sweeps.outbox as { resent?: number } | undefined)?.resent ?? 0);
      resent += sent;
      const unknown = await target.unknownPayments();
      p.say(
        `  round ${round}: resolver settled ${settled} so far, sweep re-sent ${sent}, ${unknown} unknown`,
      );
      if (unknown === 0 && sent === 0)
        return { ok: true, detail: `settled ${settled}, re-sent ${resent}, nothing unknown` };
      if (resolver.rateLimited)
        return { ok: false, detail: `the resolver's rate cap stopped it with ${unknown} unknown: run again` };
    }
    return {
      ok: false,
      detail: `still unknown after ${s.rounds} rounds (settled ${settled}, re-sent ${resent})`,
    };
  });
  return ok ? undefined : pending;
}

// A job of a Region that does not act answers `{passive: true}` and does nothing: no settle, no re-send; a resolver
// pass that found itself passive midway (`stoppedPassive`) stopped its replays there.
function passiveJobs(resolver: Record<string, unknown>, sweeps: Record<string, unknown>): string | undefined {
  if (unsafeResumeIgnoresPassive()) return undefined;
  const stopped = resolver.passive === true || resolver.stoppedPassive === true;
  const names = [stopped ? "resolver" : "", sweeps.passive === true ? "sweeps" : ""];
  const passive = names.filter(Boolean).join(" and ");
  return passive === "" ? undefined : passive;
}

/** What the verification came to: skipped (and why), or the charges whose row disagrees with the PSP. */
export type Verified = { skipped: string } | { disagree: string[] };

/**
 * Every charge the PSP made in the last hours has a row in the new Region that says what the PSP says: charged,
 * refunded or not, for the same amount (no lost payment, no lost refund).
 */
export async function verify(p: Progress, target: RegionSide, s: ResumeSettings): Promise<Verified> {
  const psp = s.psp;
  const name = `verify charges of the last ${s.verifyHours} h against their rows in ${target.role}`;
  if (!psp) return skipped(p, name);
  const disagree: string[] = [];
  await p.step(name, async () => {
    const list = psp.psp === "stripe" ? stripePspCharges : pspCharges;
    const all = await list(psp.url, psp.apiKey, Math.floor(Date.now() / 1000 - s.verifyHours * 3600));
    const charges = all.filter((c) => c.status === "succeeded");
    for (const c of charges) {
      const why = await judged(target, c);
      if (why) disagree.push(`${c.id} (${c.reference}): ${why}`);
    }
    return disagree.length === 0
      ? { ok: true, detail: `${charges.length} charge(s), each with a row that agrees` }
      : {
          ok: false,
          detail: `${disagree.length} of ${charges.length} charge(s) disagree with their row here: ${disagree.slice(0, 5).join(", ")}`,
        };
  });
  return { disagree };
}

async function judged(target: RegionSide, c: PspChargeRecord): Promise<string | undefined> {
  const row = await target.payment(c.reference);
  if (unsafeVerifyPresenceOnly()) return row ? undefined : "no row";
  return judgeCharge(c, row);
}

// Without the PSP's list nothing was verified: a failed step, so the run ends 3 and its summary says so.
async function skipped(p: Progress, name: string): Promise<Verified> {
  const why =
    "verify skipped: the PSP's URL and API key are not at hand (run under `npx sst shell --stage <stage>`, or set PSP_URL and PSP_API_KEY), so its charges cannot be listed";
  if (unsafeSkippedVerifyIsDone()) {
    p.say(why);
    return { disagree: [] };
  }
  await p.step(name, async () => ({ ok: false, detail: `NOT verified: ${why}` }));
  return { skipped: why };
}
