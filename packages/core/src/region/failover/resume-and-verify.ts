import type { PspAccess } from "../../config/psp-access";
import { pspCharges } from "../../reconcile/http-psp-charges";
import { stripePspCharges } from "../../reconcile/stripe-psp-charges";
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
 * and nothing is left to re-send, or their caps stop them; both are safe to repeat.
 */
export async function resume(p: Progress, target: RegionSide, s: ResumeSettings): Promise<boolean> {
  return Boolean(
    await p.step(`resume in ${target.role}`, async () => {
      let settled = 0;
      let resent = 0;
      for (let round = 1; round <= s.rounds; round++) {
        const resolver = await target.runResolver();
        const sweeps = await target.runSweeps();
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
          return {
            ok: false,
            detail: `the resolver's rate cap stopped it with ${unknown} unknown: run again`,
          };
      }
      return {
        ok: false,
        detail: `still unknown after ${s.rounds} rounds (settled ${settled}, re-sent ${resent})`,
      };
    }),
  );
}

/** Every charge the PSP made in the last hours has a ledger row in the new Region (no lost payment). */
export async function verify(
  p: Progress,
  target: RegionSide,
  s: ResumeSettings,
): Promise<string[] | undefined> {
  const psp = s.psp;
  if (!psp) {
    p.say(
      "verify skipped: the PSP's URL and API key are not at hand (run under `npx sst shell --stage <stage>`, or set PSP_URL and PSP_API_KEY), so its charges cannot be listed",
    );
    return undefined;
  }
  const missing: string[] = [];
  await p.step(`verify charges of the last ${s.verifyHours} h have a row in ${target.role}`, async () => {
    const list = psp.psp === "stripe" ? stripePspCharges : pspCharges;
    const all = await list(psp.url, psp.apiKey, Math.floor(Date.now() / 1000 - s.verifyHours * 3600));
    const charges = all.filter((c) => c.status === "succeeded");
    for (const c of charges)
      if (!(await target.hasPayment(c.reference))) missing.push(`${c.id} (${c.reference})`);
    return missing.length === 0
      ? { ok: true, detail: `${charges.length} charge(s), each with its payment row` }
      : {
          ok: false,
          detail: `${missing.length} of ${charges.length} charge(s) have no row here yet: ${missing.slice(0, 5).join(", ")}; a phone's retry (same key) or the old Region's recovery brings them`,
        };
  });
  return missing;
}
