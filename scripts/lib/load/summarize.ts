import { type BuyerVerdict, buyerVerdict } from "./buyer-verdict";
import { fifoBoundMs } from "./fifo-bound";
import { latencyHistogram, percentilesOf, record } from "./histograms";
import type { Observed } from "./invariants";
import type { LoadSettings } from "./load-settings";
import type { PhoneRecord } from "./phone";
import type { InvariantResult, LoadReport, Percentiles, SecondSample } from "./report-types";
import type { Sampler } from "./sampler";

interface RunOutcome {
  s: LoadSettings;
  runId: string;
  startedAt: number;
  sampler: Sampler;
  records: PhoneRecord[];
  observed: Observed & { firstShownAt: Map<string, number> };
  invariants: InvariantResult[];
  quietMs: number;
  cpu?: Record<string, number>;
}

function percentiles(values: number[]): Percentiles {
  const h = latencyHistogram();
  for (const v of values) record(h, v);
  return percentilesOf(h);
}

const count = (records: PhoneRecord[], f: (r: PhoneRecord) => boolean) => records.filter(f).length;
const sum = (xs: SecondSample[], f: (x: SecondSample) => number) => xs.reduce((a, x) => a + f(x), 0);

/** The outage's drain: how long after the outage ended the backlog took to reach zero, and the live p99 meanwhile. */
function drainOf(o: RunOutcome): Record<string, string | number> {
  if (!o.s.outage) return {};
  const end = o.s.outage.startS + o.s.outage.lengthS;
  const after = o.sampler.seconds.filter((x) => x.t >= end);
  const emptyAt = after.find((x, i) => x.unknown_backlog === 0 && i > 0)?.t;
  const drainS = emptyAt === undefined ? undefined : emptyAt - end;
  const until = o.startedAt + (emptyAt ?? end + 60) * 1000;
  const during = o.records.filter((r) => r.intendedAt >= o.startedAt + end * 1000 && r.intendedAt <= until);
  return {
    "unknown backlog peak": Math.max(0, ...o.sampler.seconds.map((x) => x.unknown_backlog)),
    "backlog drained after the outage (s)": drainS ?? "not within the run (the quiesce finished it)",
    "live first-answer p99 during the drain (ms)": percentiles(
      during.flatMap((r) => (r.firstAnswerAt ? [r.firstAnswerAt - r.intendedAt] : [])),
    ).p99,
  };
}

/** PSP calls a second over the arrivals' seconds after the first five (the ramp-up of queues), live and resolver. */
function steadyRate(o: RunOutcome): number {
  const steady = o.sampler.seconds.filter(
    (x) => x.t > Math.min(5, o.s.durationS / 3) && x.t <= o.s.durationS,
  );
  const calls = sum(steady, (x) => x.psp_live + x.psp_resolver);
  return Math.round((calls / Math.max(1, steady.length)) * 10) / 10;
}

function summaryOf(o: RunOutcome): Record<string, string | number> {
  const r = o.records;
  const secs = o.sampler.seconds;
  const finalIn10 = count(r, (x) => x.finalAt !== undefined && x.finalAt - x.intendedAt <= 10_000);
  const statuses = r.flatMap((x) => x.statuses);
  return {
    "arrivals offered": r.length,
    "offered rate (/s)": Math.round((r.length / o.s.durationS) * 10) / 10,
    succeeded: count(r, (x) => x.outcome === "succeeded"),
    declined: count(r, (x) => x.outcome === "declined"),
    "voided (resolve: never charged)": count(r, (x) => x.outcome === "voided"),
    "not final for the buyer": count(r, (x) => x.finalAt === undefined),
    "PSP charges": o.observed.charges.length,
    "achieved PSP calls/s while offered (live + resolver)": steadyRate(o),
    "503 answers (budget spent, retried)": statuses.filter((x) => x === "503").length,
    "202 answers": statuses.filter((x) => x === "202").length,
    "PSP requests live": sum(secs, (x) => x.psp_live),
    "PSP requests resolver": sum(secs, (x) => x.psp_resolver),
    "429s at the PSP": sum(secs, (x) => x.psp_429),
    "final answer within 10 s": `${((finalIn10 / Math.max(1, r.length)) * 100).toFixed(1)} %`,
    ...drainOf(o),
    "quiesce after the run (s)": Math.round(o.quietMs / 100) / 10,
  };
}

/** The buyers' verdict: final answers within the horizon, who gave up, and the FIFO bound of these arrivals. */
function buyersOf(o: RunOutcome, final: Percentiles): BuyerVerdict {
  const taps = o.records.map((x) => x.intendedAt - o.startedAt);
  // During an outage the PSP serves nobody, so the bound's queue waits for its end.
  const blocked = o.s.outage
    ? [{ fromMs: o.s.outage.startS * 1000, toMs: (o.s.outage.startS + o.s.outage.lengthS) * 1000 }]
    : [];
  const bound = fifoBoundMs(taps, o.s.endpointBudgetPerS, blocked);
  return buyerVerdict(o.records, o.s.phoneHorizonMs, bound, final);
}

function verdictSummary(v: BuyerVerdict): Record<string, string | number> {
  const x = (r: number | null) => (r === null ? "n/a (no queue)" : r);
  return {
    [`buyers final within their ${v.horizon_s} s horizon`]: `${v.final_within_horizon_pct} % (${v.final_within_horizon} of ${v.buyers})`,
    "buyers final only after the horizon": v.final_after_horizon,
    "buyers who gave up (voided or no final: must pay again)": v.gave_up,
    "FIFO bound (s, least possible worst wait)": v.fifo_bound_s,
    "final answer p99 / FIFO bound": x(v.p99_over_bound),
    "final answer max / FIFO bound": x(v.max_over_bound),
  };
}

/** Builds the run's report from what the phones heard and what the stores recorded. */
export function summarize(o: RunOutcome): LoadReport {
  const r = o.records;
  const finalAnswer = percentiles(r.flatMap((x) => (x.finalAt ? [x.finalAt - x.intendedAt] : [])));
  const buyers = buyersOf(o, finalAnswer);
  const notified = r.flatMap((x) => {
    const at = x.payment_id ? o.observed.firstShownAt.get(x.payment_id) : undefined;
    return at === undefined ? [] : [at - x.intendedAt];
  });
  return {
    run_id: o.runId,
    started_at: new Date(o.startedAt).toISOString(),
    settings: settingsOf(o.s),
    seconds: o.sampler.seconds,
    latency: {
      first_answer: percentiles(r.flatMap((x) => (x.firstAnswerAt ? [x.firstAnswerAt - x.intendedAt] : []))),
      final_answer: finalAnswer,
      tap_to_notification: percentiles(notified),
    },
    summary: { ...verdictSummary(buyers), ...summaryOf(o) },
    buyers,
    invariants: o.invariants,
    ...(o.cpu ? { cpu: o.cpu } : {}),
    ok: o.invariants.every((i) => i.ok) && buyers.ok,
  };
}

function settingsOf(s: LoadSettings): Record<string, string | number | boolean> {
  return {
    rate: s.rateFrom === s.rateTo ? s.rateFrom : `${s.rateFrom}→${s.rateTo}`,
    duration_s: s.durationS,
    target: s.url ?? "started here (both Regions)",
    psp_outage: s.outage ? `${s.outage.startS}:${s.outage.lengthS}` : "none",
    psp_latency: s.latency ? `${s.latency.p50}:${s.latency.p99}` : "none",
    lose_reply_rate: s.loseReplyRate,
    callers: s.callers,
    merchants: s.merchants,
    hot_merchant_share: s.hotShare,
    decline_share: s.declineShare,
    psp_limits: s.liftCaps ? "lifted" : `${s.pspAccountLimit}/s account, ${s.pspEndpointLimit}/s endpoint`,
    ...(s.scale === undefined ? {} : { scale: s.scale }),
    endpoint_budget_per_s: s.endpointBudgetPerS,
    horizon_s: s.phoneHorizonMs / 1000,
    resolver_every_s: s.resolverEveryS,
    seed: s.seed,
  };
}
