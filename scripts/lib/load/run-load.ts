import { randomUUID } from "node:crypto";
import type { PaymentRequest } from "@eo/contract";
import { createRandom } from "@eo/psp";
import { mintToken } from "../../../packages/local/src/runtime/jwt";
import { arrivalTimes } from "./arrivals";
import { cpuSnapshot, cpuSpent } from "./cpu";
import { checkInvariants, checkSettled } from "./invariants";
import type { LoadSettings } from "./load-settings";
import { LocalApi } from "./local-api";
import { observe, pspCharges } from "./observe";
import { type PhoneRecord, Phones } from "./phone";
import { quiesce } from "./quiesce";
import type { LoadReport } from "./report-types";
import { progressLine, Sampler } from "./sampler";
import { startStack } from "./stack-process";
import { summarize } from "./summarize";

/** Everything about one run's buyers and merchants, named after the run so that runs never mix. */
interface Cast {
  runId: string;
  callers: string[];
  merchants: string[];
  hot: string;
  tokenOf: (caller: string) => Promise<string>;
}

function castOf(s: LoadSettings): Cast {
  const runId = randomUUID().slice(0, 8);
  const tokens = new Map<string, Promise<string>>();
  return {
    runId,
    callers: Array.from({ length: s.callers }, (_, i) => `lt-${runId}-c${i}`),
    merchants: Array.from({ length: s.merchants }, (_, i) => `lt-${runId}-m${i}`),
    hot: `lt-${runId}-hot`,
    tokenOf: (caller) => {
      const t = tokens.get(caller) ?? mintToken(caller, { expiresInS: 7_200 });
      tokens.set(caller, t);
      return t;
    },
  };
}

/** The order of arrival `i`: its caller, merchant, amount and card drawn from the seeded generator. */
function orderOf(s: LoadSettings, cast: Cast, i: number, random: () => number) {
  const caller = cast.callers[Math.floor(random() * cast.callers.length)] as string;
  const merchant =
    random() < s.hotShare
      ? cast.hot
      : (cast.merchants[Math.floor(random() * cast.merchants.length)] as string);
  const declined = random() < s.declineShare;
  const order: PaymentRequest = {
    order_id: `${cast.runId}-${i}`,
    amount: 500 + Math.floor(random() * 20_000),
    currency: "USD",
    payment_method: declined ? "pm_card_declined" : "pm_card_visa",
    merchant_id: merchant,
  };
  return { caller, order };
}

async function registerDevices(api: LocalApi, cast: Cast): Promise<void> {
  for (let i = 0; i < cast.callers.length; i += 16) {
    await Promise.all(
      cast.callers.slice(i, i + 16).map(async (c) => {
        const res = await fetch(`${api.baseUrl}/devices`, {
          method: "POST",
          headers: { authorization: `Bearer ${await cast.tokenOf(c)}`, "content-type": "application/json" },
          body: JSON.stringify({ platform: "apns", token: `tok-${c}` }),
        });
        if (res.status !== 201) throw new Error(`registering a device for ${c} answered ${res.status}`);
      }),
    );
  }
}

async function armFaults(api: LocalApi, s: LoadSettings): Promise<void> {
  await api.del("/_local/faults");
  const many = 1_000_000_000;
  if (s.latency)
    await api.post("/_local/faults", {
      psp_latency_p50_ms: s.latency.p50,
      psp_latency_p99_ms: s.latency.p99,
      n: many,
    });
  if (s.loseReplyRate > 0)
    await api.post("/_local/faults", { psp_lose_reply_rate: s.loseReplyRate, n: many });
}

const sleepUntil = (at: number) => new Promise((done) => setTimeout(done, Math.max(0, at - Date.now())));

/** Offers every arrival at its planned time, whatever the answers do, and waits for every phone to finish. */
async function offer(s: LoadSettings, api: LocalApi, cast: Cast, sampler: Sampler, startedAt: number) {
  // The fake PSP's seeded generator: the same seed gives the same arrivals, buyers and merchants.
  const random = createRandom(s.seed);
  const times = arrivalTimes(s.rateFrom, s.rateTo, s.durationS, random);
  const phones = new Phones(api.baseUrl, cast.tokenOf, {
    horizonMs: s.phoneHorizonMs,
    unsafeNewKeyPerRetry: s.unsafeNewKeyPerRetry,
  });
  const taps: Array<Promise<PhoneRecord>> = [];
  if (s.outage) {
    const { startS, lengthS } = s.outage;
    void sleepUntil(startedAt + startS * 1000).then(() =>
      api.post("/_local/faults", { psp_outage_ms: lengthS * 1000 }),
    );
  }
  for (const [i, t] of times.entries()) {
    const { caller, order } = orderOf(s, cast, i, random);
    await sleepUntil(startedAt + t);
    sampler.offered();
    const intendedAt = startedAt + t;
    const tap = phones.tap(caller, order, intendedAt, (r) =>
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

/** One progress line a second from the generator's own counters; the stack's gauges are read beside it. */
function tickEverySecond(sampler: Sampler, log: (line: string) => void) {
  let stopped = false;
  const gauges = sampler.readInBackground();
  const done = (async () => {
    for (let next = Date.now() + 1_000; !stopped; next += 1_000) {
      await sleepUntil(next);
      log(progressLine(sampler.tick()));
    }
    await gauges.stop();
    sampler.tick();
  })();
  return {
    done,
    stop: () => {
      stopped = true;
    },
  };
}

/** One load run: start (or reach) the stack, offer the load, quiesce, check, and report. */
export async function runLoad(s: LoadSettings, log: (line: string) => void): Promise<LoadReport> {
  const stack = s.url ? undefined : await startStack(s, log);
  try {
    const api = new LocalApi(s.url ?? (stack?.apiUrl as string));
    const health = (await api.get<{ ok: boolean; pids?: Record<string, number> }>("/_local/health")).body;
    if (!health.ok) throw new Error(`${api.baseUrl}/_local/health is not ok`);
    const cast = castOf(s);
    log(`load run ${cast.runId}: ${s.rateFrom}→${s.rateTo}/s for ${s.durationS} s against ${api.baseUrl}`);
    await registerDevices(api, cast);
    await armFaults(api, s);
    const pids = { ...(health.pids ?? {}), ...(stack ? { "stack (handlers, pollers)": stack.pid } : {}) };
    const cpuBefore = await cpuSnapshot({ ...pids, "load generator": process.pid });
    const chargesBefore = new Set((await pspCharges(api)).map((c) => c.id));
    const startedAt = Date.now() + 200;
    const sampler = new Sampler(api, startedAt);
    await sampler.baseline();
    const ticking = tickEverySecond(sampler, log);
    const records = await offer(s, api, cast, sampler, startedAt).finally(() => ticking.stop());
    await ticking.done;
    await api.del("/_local/faults");
    const cpu = cpuSpent(cpuBefore, await cpuSnapshot({ ...pids, "load generator": process.pid }));
    const merchants = [...cast.merchants, cast.hot];
    // Each quiesce pass observes; the last observation is the one the check judges.
    let last: Awaited<ReturnType<typeof observe>> | undefined;
    const settled = async () => {
      last = await observe(api, records, merchants, cast.tokenOf, chargesBefore);
      return checkSettled(last);
    };
    const quietMs = await quiesce(api, settled, log, s.quietWithinMs);
    const observed =
      last && checkSettled(last) ? last : await observe(api, records, merchants, cast.tokenOf, chargesBefore);
    const invariants = checkInvariants(observed);
    return summarize({
      s,
      runId: cast.runId,
      startedAt,
      sampler,
      records,
      observed,
      invariants,
      quietMs,
      cpu: stack ? cpu : undefined,
    });
  } finally {
    await stack?.stop();
  }
}
