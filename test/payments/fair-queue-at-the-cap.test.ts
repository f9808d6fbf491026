import { afterEach, describe, expect, it } from "vitest";
import { createPaymentsClient, memoryJournal } from "../../packages/client/src/index";
import { claimDocumentClient, documentClient } from "../../packages/core/src/aws/document-client";
import { clock } from "../../packages/core/src/clock/clock";
import { paymentIdOf } from "../../packages/core/src/ids/derive-ids";
import { paymentDeps } from "../../packages/core/src/payment/payment-wiring";
import { DynamoPspBudget } from "../../packages/core/src/psp-budget/dynamo-psp-budget";
import { reconcileSince } from "../../packages/core/src/reconcile/reconcile-since";
import { reconcileSources } from "../../packages/core/src/reconcile/reconcile-wiring";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";

// A small cap, so that 2x it is a handful of buyers a second: our budget 2/s on an endpoint the PSP allows 10/s.
const stack = useLocalStack({ psp: { rateLimits: { perAccount: 100, perEndpoint: 10 } } });
const api = () => new ApiClient(stack().apiUrl);
const BUDGET_PER_S = 2;
// Two taps 250 ms apart may swap when the earlier one's first request is slower to reach the bucket: one place.
const TOLERANCE = 1;

function useSmallBudget(): void {
  const deps = paymentDeps();
  const rates = { accountPerS: 90, endpointPerS: BUDGET_PER_S, resolverPerS: 1 };
  deps.pspBudget = new DynamoPspBudget(
    claimDocumentClient(undefined, false),
    deps.config.claimTable,
    rates,
    clock,
  );
}

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_NO_FAIR_QUEUE;
});

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface Served {
  tap: number;
  caller: string;
  kind: string;
  finalAt: number;
}

/** A buyer on the shipped client, which comes back at a booked slot's Retry-After with the same key. */
async function buyer(tap: number, tag: string, tapAt: number): Promise<Served> {
  const caller = `u-fair-${tag}-${tap}`;
  const client = createPaymentsClient({
    baseUrl: stack().apiUrl,
    token: () => api().token(caller),
    journal: memoryJournal(),
    horizonMs: 60_000,
  });
  await sleep(tapAt - Date.now());
  const paid = await client.pay(order42({ order_id: `${caller}-order` }));
  return { tap, caller, kind: paid.kind, finalAt: Date.now() };
}

/** Buyers tapping every `gapMs`, all at once from now on; answered in the order returned. */
async function tapsEvery(n: number, gapMs: number, tag: string): Promise<Served[]> {
  const start = Date.now() + 200;
  return Promise.all(Array.from({ length: n }, (_, i) => buyer(i, tag, start + i * gapMs)));
}

/** For each buyer, how many who tapped later were served before it; the worst of them. */
function worstDisplacement(all: Served[]): number {
  return Math.max(...all.map((b) => all.filter((o) => o.tap > b.tap && o.finalAt < b.finalAt).length));
}

async function warmUp(tag: string): Promise<void> {
  const reply = await api().pay(await api().token(`u-warm-${tag}`), newKey(), order42());
  expect(reply.status).toBe(201);
  await sleep(1_500);
}

describe("buyers at 2x the PSP's cap", () => {
  it("are served in the order they tapped, within one place, every one charged", async () => {
    // prepare
    stack().psp.setWebhookUrl(undefined);
    useSmallBudget();
    await warmUp("fair");
    // act: 16 taps at 4/s against 2/s
    const served = await tapsEvery(16, 250, "fair");
    // assess
    expect(served.map((b) => b.kind)).toEqual(served.map(() => "succeeded"));
    expect(worstDisplacement(served)).toBeLessThanOrEqual(TOLERANCE);
  }, 120_000);

  it("without the fair queue (switch off), a buyer who tapped first is served after later ones", async () => {
    // prepare
    stack().psp.setWebhookUrl(undefined);
    useSmallBudget();
    process.env.EO_TEST_UNSAFE_NO_FAIR_QUEUE = "1";
    await warmUp("unfair");
    // act
    const served = await tapsEvery(16, 250, "unfair");
    // assess
    expect(served.map((b) => b.kind)).toEqual(served.map(() => "succeeded"));
    expect(worstDisplacement(served)).toBeGreaterThan(TOLERANCE);
  }, 120_000);
});

describe("a booked slot that nobody claims", () => {
  it("does not hold the queue: those who come back are served at their slots, a later tap at once", async () => {
    // prepare: 10 buyers at once; every other booked buyer walks away after its 503
    stack().psp.setWebhookUrl(undefined);
    useSmallBudget();
    await warmUp("walk");
    const token = (i: number) => api().token(`u-walk-${i}`);
    const keys = Array.from({ length: 10 }, () => newKey());
    const firsts = await Promise.all(keys.map(async (k, i) => api().pay(await token(i), k, order42())));
    const booked = firsts.flatMap((r, i) => (r.status === 503 ? [i] : []));
    const walkers = booked.filter((_, j) => j % 2 === 0);
    const comers = booked.filter((_, j) => j % 2 === 1);
    // act: the others come back at their Retry-After
    const started = Date.now();
    const back = await Promise.all(
      comers.map(async (i) => {
        await sleep(Number(firsts[i]?.headers.get("retry-after")) * 1000);
        const reply = await api().pay(await token(i), keys[i] as string, order42());
        return { reply, lateMs: Date.now() - started - Number(firsts[i]?.headers.get("retry-after")) * 1000 };
      }),
    );
    await sleep(1_500);
    const later = await api().pay(await api().token("u-walk-later"), newKey(), order42());
    // assess
    expect(booked.length).toBeGreaterThanOrEqual(6);
    expect(back.map((b) => b.reply.status)).toEqual(back.map(() => 201));
    for (const b of back) expect(b.lateMs).toBeLessThan(2_500);
    expect(later.status).toBe(201);
    for (const i of walkers) {
      const paymentId = paymentIdOf(`u-walk-${i}`, keys[i] as string);
      expect(await tablesOf(stack()).payment(paymentId)).toBeUndefined();
      expect(
        stack()
          .psp.charges()
          .filter((c) => c.reference === paymentId),
      ).toEqual([]);
    }
  }, 120_000);

  it("leaves nothing a later reconcile would see: no row, no claim, no charge, no discrepancy", async () => {
    // prepare
    stack().psp.setWebhookUrl(undefined);
    useSmallBudget();
    await sleep(2_000); // the PSP lists by whole seconds: the earlier tests' charges stay before the period
    const since = Date.now();
    const callers = Array.from({ length: 10 }, (_, i) => `u-refused-${newKey()}-${i}`);
    const keys = callers.map(() => newKey());
    // act: ten taps at once; the refused ones never come back
    const firsts = await Promise.all(
      callers.map(async (c, i) => api().pay(await api().token(c), keys[i], order42())),
    );
    const report = await reconcileSince(
      reconcileSources({
        db: documentClient(),
        ledgerTable: stack().emulators.regions.primary.ledgerTable,
        pspUrl: stack().psp.url,
        apiKey: () => "sk_local",
      }),
      { sinceMs: since, now: Date.now() + 120_000, staleMs: 60_000 },
    );
    // assess
    const refused = firsts.flatMap((r, i) => (r.status === 503 ? [i] : []));
    expect(refused.length).toBeGreaterThan(0);
    for (const i of refused) {
      const paymentId = paymentIdOf(callers[i] as string, keys[i] as string);
      expect(await tablesOf(stack()).payment(paymentId)).toBeUndefined();
      expect(await tablesOf(stack()).claim(`payments:${callers[i]}:${keys[i]}`)).toBeUndefined();
      expect(
        stack()
          .psp.charges()
          .filter((c) => c.reference === paymentId),
      ).toEqual([]);
    }
    expect(report.discrepancies).toEqual([]);
    expect(report.charges).toBe(firsts.filter((r) => r.status === 201).length);
  }, 120_000);
});
