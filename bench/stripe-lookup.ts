// npm run bench:stripe-lookup [-- --per-day 50000 --rows 200 --seconds 90 --page-ms 50]
// Stripe lookups at real volume (issue 39), in one run against the fake PSP speaking Stripe (in process, loopback),
// each scenario once as shipped and once as before issue 39 (the baseline: the list's window a whole key window
// after the row's creation, and one budget slot for a whole lookup), in the same run:
//   1. one lost reply in an account that takes --per-day intents a day, looked up by the resolver a day later while
//      search answers nothing: settled within the first pass (5 s), and in how many list pages;
//   2. a resolver drain of --rows UNKNOWN payments past the key window (half charged, half never reached Stripe)
//      at the sandbox's caps (25 requests/s for the account and each endpoint, 20/s for search; our budget at
//      PSP_RATE_PER_S=22, each endpoint 5.5/s), with live taps at 4/s beside it: the 429s the PSP answers.
// The budget is MemoryPspBudget (one process: the GCRA spacing of DynamoPspBudget without DynamoDB), and the resolver's
// step is replayCharge as settleUnknowns calls it, one row after another; the ledger's writes are not made.
import { parseArgs } from "node:util";
import { armFault, clearFaults } from "../packages/core/src/faults/faults";
import type { PaymentRow } from "../packages/core/src/ledger/ledger-items";
import { replayCharge } from "../packages/core/src/payment/replay-charge";
import type { PspReply } from "../packages/core/src/psp/psp-port";
import {
  HOUR_MS,
  type LookupRig,
  pagesOf,
  RIG_KEY,
  startLookupRig,
  unknownRow,
} from "../packages/core/test/support/lookup-rig";

const { values } = parseArgs({
  options: {
    "per-day": { type: "string", default: "50000" },
    rows: { type: "string", default: "200" },
    seconds: { type: "string", default: "90" },
    "page-ms": { type: "string", default: "50" },
  },
});
const PER_DAY = positive("per-day", values["per-day"]);
const ROWS = positive("rows", values.rows);
const SECONDS = positive("seconds", values.seconds);
const PAGE_MS = Number(values["page-ms"]);
/** The resolver's time for one row (settle-unknowns' PSP_TIMEOUT_MS). */
const PASS_MS = 5_000;
const SANDBOX_FAKE = {
  rateLimits: { perAccount: 25, perEndpoint: 25 },
  searchRatePerS: 20,
  listPageMs: PAGE_MS,
};
const SANDBOX_BUDGET = { accountPerS: 22, endpointPerS: 22, resolverPerS: 10 };
const LIVE_PER_S = 4;

function positive(name: string, raw: string | undefined): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} ${raw}: must be a positive number`);
  return n;
}

type Variant = "shipped" | "before issue 39";

// The baseline is the code path before issue 39, kept behind its two test switches.
function use(variant: Variant): void {
  const before = variant === "before issue 39" ? "1" : "0";
  process.env.EO_TEST_UNSAFE_WIDE_LOOKUP_WINDOW = before;
  process.env.EO_TEST_UNSAFE_ONE_SLOT_PER_LOOKUP = before;
}

/** An account with PER_DAY intents a day from an hour before now, and the clock a day less an hour on. */
async function busyAccount(): Promise<{ rig: LookupRig; t0: number }> {
  const rig = await startLookupRig(SANDBOX_FAKE, SANDBOX_BUDGET);
  const t0 = rig.clock.now();
  const count = Math.round(PER_DAY);
  rig.psp.seedIntents({ account: RIG_KEY, count, fromMs: t0 - HOUR_MS, toMs: t0 + 23 * HOUR_MS });
  return { rig, t0 };
}

interface LostReply {
  variant: Variant;
  reply: PspReply;
  ms: number;
  pages: number;
  requests: number;
  throttled: number;
}

async function lostReply(variant: Variant): Promise<LostReply> {
  use(variant);
  const { rig, t0 } = await busyAccount();
  try {
    armFault("psp_lose_reply", 1, 1);
    await rig.deps.psp.charge("pay_lost:charge", chargeOf("pay_lost"), 5_000);
    rig.clock.advance(23 * HOUR_MS + 2 * 60_000);
    armFault("psp_search_lag", 1, 1_000);
    const before = rig.psp.requests();
    const start = Date.now();
    const reply = await replayCharge(rig.deps, unknownRow("pay_lost", t0, [t0]), rig.clock.now() + PASS_MS, {
      origin: "resolver",
    });
    const ms = Date.now() - start;
    const { pages } = pagesOf(rig.psp);
    return {
      variant,
      reply,
      ms,
      pages,
      requests: rig.psp.requests() - before,
      throttled: rig.psp.stats().rate_limited,
    };
  } finally {
    clearFaults();
    await rig.psp.stop();
  }
}

const chargeOf = (reference: string) => ({
  amount: 3000,
  currency: "USD",
  payment_method: "pm_card_visa",
  reference,
});

interface Drain {
  variant: Variant;
  examined: number;
  settled: number;
  seconds: number;
  resolverThrottled: number;
  liveTaps: number;
  liveThrottled: number;
  liveOk: number;
  peakPerS: number;
}

// Rows guarded in the hour before t0, every other one charged at Stripe a second after its send (its reply lost).
function drainRows(rig: LookupRig, t0: number): PaymentRow[] {
  return Array.from({ length: ROWS }, (_, i) => {
    const sentAt = Math.round(t0 - HOUR_MS + (i * HOUR_MS) / ROWS);
    const id = `pay_drain_${i}`;
    if (i % 2 === 0)
      rig.psp.seedIntents({
        account: RIG_KEY,
        count: 1,
        fromMs: sentAt + 1_000,
        toMs: sentAt + 1_000,
        reference: () => id,
      });
    return unknownRow(id, sentAt, [sentAt]);
  });
}

async function drain(variant: Variant): Promise<Drain> {
  use(variant);
  const { rig, t0 } = await busyAccount();
  const rows = drainRows(rig, t0);
  rig.clock.advance(23 * HOUR_MS + 2 * 60_000);
  const out: Drain = {
    variant,
    examined: 0,
    settled: 0,
    seconds: 0,
    resolverThrottled: 0,
    liveTaps: 0,
    liveThrottled: 0,
    liveOk: 0,
    peakPerS: 0,
  };
  const endAt = Date.now() + SECONDS * 1000;
  const peak = samplePeak(rig);
  const live = liveTaps(rig, endAt, out);
  const start = Date.now();
  try {
    for (const row of rows) {
      if (Date.now() >= endAt) break;
      const reply = await replayCharge(rig.deps, row, rig.clock.now() + PASS_MS, { origin: "resolver" });
      out.examined += 1;
      if (reply.kind === "done" || reply.kind === "declined") out.settled += 1;
      // Nothing at Stripe: found absent by a complete lookup (the settle period then fails it).
      if (reply.kind === "not-found") out.settled += 1;
      if (reply.kind === "rate-limited" && reply.by === "psp") out.resolverThrottled += 1;
    }
    out.seconds = (Date.now() - start) / 1000;
    await live.stop();
    out.peakPerS = peak.stop();
    out.liveThrottled = rig.psp.stats().by_origin_rate_limited.live;
    out.resolverThrottled = rig.psp.stats().by_origin_rate_limited.resolver;
    return out;
  } finally {
    await rig.psp.stop();
  }
}

// Live taps at LIVE_PER_S through the same budget, new rows (their send recorded by the guard), until the drain ends.
function liveTaps(rig: LookupRig, endAt: number, out: Drain): { stop: () => Promise<unknown> } {
  const taps: Promise<void>[] = [];
  let stopped = false;
  const timer = setInterval(() => {
    if (stopped || Date.now() >= endAt) return;
    const id = `pay_live_${out.liveTaps++}`;
    const row = { ...unknownRow(id, rig.clock.now(), [rig.clock.now()]), state: "PENDING" as const };
    taps.push(
      replayCharge(rig.deps, row, rig.clock.now() + 5_000, { origin: "live", sendRecorded: true }).then(
        (r) => {
          if (r.kind === "done") out.liveOk += 1;
        },
      ),
    );
  }, 1000 / LIVE_PER_S);
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      return Promise.all(taps);
    },
  };
}

// The most requests the PSP received in any second, sampled every 100 ms.
function samplePeak(rig: LookupRig): { stop: () => number } {
  const counts: number[] = [];
  const timer = setInterval(() => counts.push(rig.psp.requests()), 100);
  return {
    stop: () => {
      clearInterval(timer);
      let most = 0;
      for (let i = 10; i < counts.length; i++)
        most = Math.max(most, (counts[i] ?? 0) - (counts[i - 10] ?? 0));
      return most;
    },
  };
}

function reportLost(runs: LostReply[]): void {
  const [shipped, base] = runs as [LostReply, LostReply];
  console.log(
    `\n1. One lost reply, an account of ${PER_DAY} intents a day, search answering nothing, one resolver pass (5 s)`,
  );
  console.log(
    `${"".padEnd(18)}${"outcome".padStart(10)}${"pages".padStart(8)}${"requests".padStart(10)}${"ms".padStart(8)}${"429s".padStart(6)}`,
  );
  for (const r of runs)
    console.log(
      `${r.variant.padEnd(18)}${r.reply.kind.padStart(10)}${String(r.pages).padStart(8)}${String(r.requests).padStart(10)}${String(r.ms).padStart(8)}${String(r.throttled).padStart(6)}`,
    );
  const inWindow = Math.round((PER_DAY / 24) * 23);
  console.log(
    `pages: ${(shipped.pages / base.pages).toFixed(3)}x the baseline's; the baseline's window holds ~${inWindow} intents` +
      ` (${Math.ceil(inWindow / 100)} pages; it stops at 200 or its 5 s, and before issue 39 kept no cursor: never settled)`,
  );
}

function reportDrain(runs: Drain[]): void {
  console.log(
    `\n2. Resolver drain of ${ROWS} UNKNOWN payments past the key window at the sandbox's caps, live taps at ${LIVE_PER_S}/s (at most ${SECONDS} s)`,
  );
  console.log(
    `${"".padEnd(18)}${"examined".padStart(9)}${"settled".padStart(9)}${"s".padStart(7)}${"rows/s".padStart(8)}${"429 resolver".padStart(14)}${"429 live".padStart(10)}${"live ok".padStart(9)}${"peak req/s".padStart(12)}`,
  );
  for (const r of runs)
    console.log(
      `${r.variant.padEnd(18)}${String(r.examined).padStart(9)}${String(r.settled).padStart(9)}${r.seconds.toFixed(1).padStart(7)}${(r.examined / r.seconds).toFixed(2).padStart(8)}${String(r.resolverThrottled).padStart(14)}${String(r.liveThrottled).padStart(10)}${`${r.liveOk}/${r.liveTaps}`.padStart(9)}${String(r.peakPerS).padStart(12)}`,
    );
}

async function main(): Promise<void> {
  const started = Date.now();
  const lost = [await lostReply("shipped"), await lostReply("before issue 39")];
  reportLost(lost);
  const drains = [await drain("shipped"), await drain("before issue 39")];
  reportDrain(drains);
  console.log(
    `\n(fake PSP page time ${PAGE_MS} ms; the whole run ${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
}

await main();
