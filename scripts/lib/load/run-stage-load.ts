import { randomUUID } from "node:crypto";
import type { PaymentRequest } from "@eo/contract";
import { createRandom } from "@eo/psp";
import { arrivalTimes } from "./arrivals";
import type { Observed } from "./invariants";
import type { LoadSettings } from "./load-settings";
import type { LocalApi } from "./local-api";
import { type PhoneRecord, Phones } from "./phone";
import { checkRemoteInvariants, NOT_JUDGED_ON_A_STAGE, remoteSettled } from "./remote-invariants";
import { chargesBefore, observeRemote, type RemoteAccess, type RemoteObserved } from "./remote-observe";
import type { LoadReport, SecondSample } from "./report-types";
import { Sampler } from "./sampler";
import { maskToken, type StagePlan } from "./stage-target";
import { summarize } from "./summarize";

/** A stage has no gauges: the sampler counts from the phones alone and must never reach for `/_local`. */
const NO_GAUGES = {
  get: () => Promise.reject(new Error("a stage has no /_local routes")),
} as unknown as LocalApi;

const FINAL = new Set(["SUCCEEDED", "FAILED", "REFUNDED"]);

const sleepUntil = (at: number) => new Promise((done) => setTimeout(done, Math.max(0, at - Date.now())));

/** The order of arrival `i`: merchant, amount and card from the seeded generator, as the local run draws them. */
function orderOf(s: LoadSettings, runId: string, i: number, random: () => number) {
  const phone = `lt-${runId}-c${Math.floor(random() * s.callers)}`;
  const merchant =
    random() < s.hotShare ? `lt-${runId}-hot` : `lt-${runId}-m${Math.floor(random() * s.merchants)}`;
  const declined = random() < s.declineShare;
  const order: PaymentRequest = {
    order_id: `${runId}-${i}`,
    amount: 500 + Math.floor(random() * 20_000),
    currency: "USD",
    payment_method: declined ? "pm_card_declined" : "pm_card_visa",
    merchant_id: merchant,
  };
  return { phone, order };
}

/** Offers every arrival at its planned time (open loop) and waits for every phone to finish. */
async function offer(s: LoadSettings, plan: StagePlan, runId: string, sampler: Sampler, startedAt: number) {
  const random = createRandom(s.seed);
  const times = arrivalTimes(s.rateFrom, s.rateTo, s.durationS, random);
  // Every phone pays as the one caller whose token the operator gave: phones differ in their keys, not their sub.
  const phones = new Phones(plan.apiUrl, async () => plan.token, { horizonMs: s.phoneHorizonMs });
  const taps: Array<Promise<PhoneRecord>> = [];
  for (const [i, t] of times.entries()) {
    const { phone, order } = orderOf(s, runId, i, random);
    await sleepUntil(startedAt + t);
    sampler.offered();
    const intendedAt = startedAt + t;
    const tap = phones.tap(phone, order, intendedAt, (r) =>
      sampler.firstAnswer(r.firstStatus ?? "other", (r.firstAnswerAt ?? intendedAt) - intendedAt),
    );
    taps.push(
      tap.then((r) => {
        sampler.finished(r.finalAt !== undefined);
        return r;
      }),
    );
  }
  return Promise.all(taps);
}

/** The progress line of one second against a stage: what the phones heard (the stage's gauges are not read). */
function stageProgressLine(x: SecondSample): string {
  const answers = Object.entries(x.first_answers)
    .map(([k, n]) => `${k}:${n}`)
    .join(" ");
  return (
    `t=${String(x.t).padStart(3)}s offered ${String(x.offered).padStart(3)} accepted ${String(x.accepted).padStart(3)} ` +
    `in flight ${String(x.in_flight).padStart(4)} | first answer p50 ${x.first_answer_ms.p50} ms p99 ${x.first_answer_ms.p99} ms | ${answers}`
  );
}

function tickEverySecond(sampler: Sampler, log: (line: string) => void) {
  let stopped = false;
  const done = (async () => {
    for (let next = Date.now() + 1_000; !stopped; next += 1_000) {
      await sleepUntil(next);
      log(stageProgressLine(sampler.tick()));
    }
  })();
  return {
    done,
    stop: () => {
      stopped = true;
    },
  };
}

/** Reads the stage until the run's payments are all final (the stage's resolver runs on its own schedule). */
async function settle(
  a: RemoteAccess,
  plan: StagePlan,
  records: PhoneRecord[],
  before: Set<string>,
  since: number,
  log: (line: string) => void,
) {
  const started = Date.now();
  const late = () => Date.now() - started >= plan.settleWithinMs;
  for (let pass = 1; ; pass++) {
    // A busy stage or PSP (a 5xx, a page that timed out) is a pass that found it busy, until the bound.
    const o = await observeRemote(a, records, before, since).catch((err: Error) => {
      if (late()) throw err;
      log(`  settling: pass ${pass}, the stage or the PSP did not answer (${err.message})`);
      return undefined;
    });
    if (o && (remoteSettled(o) || late())) return { o, quietMs: Date.now() - started };
    const open = [...(o?.rows.values() ?? [])].filter((r) => !FINAL.has(r.state)).length;
    if (o)
      log(
        `  settling: pass ${pass}, ${open} payments not final, ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
    await new Promise((done) => setTimeout(done, 5_000));
  }
}

/** The report as summarize builds it, without the stack's gauges a stage does not show, and with what was not judged. */
function stageReport(base: LoadReport, plan: StagePlan, o: RemoteObserved): LoadReport {
  const summary = Object.fromEntries(
    Object.entries(base.summary).filter(([k]) => !/PSP requests|429s at the PSP|achieved PSP calls/.test(k)),
  );
  summary["PSP declines (the PSP's records)"] = o.charges.filter((c) => c.status !== "succeeded").length;
  for (const [name, why] of Object.entries(NOT_JUDGED_ON_A_STAGE)) summary[`not judged: ${name}`] = why;
  const { psp_limits: _l, resolver_every_s: _r, ...settings } = base.settings;
  return { ...base, summary, settings: { ...settings, target: `${plan.target.where}: ${plan.apiUrl}` } };
}

/** One run against a deployed stage: offer, let the stage settle, and judge from its public API and the PSP. */
export async function runStageLoad(
  s: LoadSettings,
  plan: StagePlan,
  log: (line: string) => void,
): Promise<LoadReport> {
  const runId = randomUUID().slice(0, 8);
  const access: RemoteAccess = { apiUrl: plan.apiUrl, token: plan.token, psp: plan.psp };
  log(`load run ${runId}: ${s.rateFrom}→${s.rateTo}/s for ${s.durationS} s against ${plan.target.where}`);
  log(`  API ${plan.apiUrl}; PSP records ${plan.psp.url}; caller token ${maskToken(plan.token)}`);
  // A minute's slack below the run: the PSP's `created` is its own clock, in whole seconds.
  const since = Math.floor(Date.now() / 1000) - 60;
  const before = await chargesBefore(access, since);
  const startedAt = Date.now() + 200;
  const sampler = new Sampler(NO_GAUGES, startedAt);
  const ticking = tickEverySecond(sampler, log);
  const records = await offer(s, plan, runId, sampler, startedAt).finally(() => ticking.stop());
  await ticking.done;
  sampler.tick();
  const { o, quietMs } = await settle(access, plan, records, before, since, log);
  const invariants = checkRemoteInvariants(o);
  const observed = {
    phones: records,
    charges: o.charges.filter((c) => c.status === "succeeded"),
    rows: o.rows,
    merchants: new Map(),
    screens: new Map(),
    backlog: 0,
    firstShownAt: new Map<string, number>(),
  } satisfies Observed & { firstShownAt: Map<string, number> };
  const base = summarize({
    s: { ...s, url: plan.apiUrl },
    runId,
    startedAt,
    sampler,
    records,
    observed,
    invariants,
    quietMs,
  });
  return stageReport(base, plan, o);
}
