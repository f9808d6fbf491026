import { randomUUID } from "node:crypto";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentIdOf } from "../../packages/core/src/ids/derive-ids";
import { DEFAULT_STALE_MS, reconcileSince } from "../../packages/core/src/reconcile/reconcile-since";
import type { ReconcileSources } from "../../packages/core/src/reconcile/reconcile-sources";
import { reconcileSources } from "../../packages/core/src/reconcile/reconcile-wiring";
import { type FakePsp, startFakePsp } from "../../packages/psp/src/index";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";
import { runScript } from "../support/run-script";
import { asyncQuiet } from "../support/tables";

// Nightly reconciliation: what the PSP charged against what the ledger holds, read-only.
const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);
const env = () => ({
  AWS_ENDPOINT_URL_DYNAMODB: stack().emulators.endpoints.dynamodb,
  LEDGER_TABLE: stack().emulators.regions.primary.ledgerTable,
  PSP_URL: stack().psp.url,
  PSP_API_KEY: "sk_local",
});
const since = new Date(Date.now() - 60_000).toISOString();
const reconcile = (...args: string[]) => runScript("scripts/reconcile.ts", ["--env", ...args], env());

// A PSP whose every charge was made ten minutes ago: a planted charge with no row is then a lost payment, not one
// whose row may still be in flight.
let earlier: FakePsp;
beforeAll(async () => {
  earlier = await startFakePsp({ webhookSecret: "s", clock: { now: () => Date.now() - 10 * 60_000 } });
});
afterAll(async () => {
  await earlier?.stop();
});

/** A charge made at the PSP directly, under our reference, as a lost request or a bad manual edit would leave. */
async function pspCharge(reference: string, amount = 3000, currency = "usd", pspUrl = stack().psp.url) {
  const res = await fetch(`${pspUrl}/v1/charges`, {
    method: "POST",
    headers: {
      authorization: "Bearer sk_local",
      "idempotency-key": randomUUID(),
      "content-type": "application/json",
    },
    body: JSON.stringify({ amount, currency, payment_method: "pm_1", reference }),
  });
  return ((await res.json()) as { id: string }).id;
}

/** A payment row written straight into the ledger (what a bug or a hand edit could leave). */
async function ledgerRow(state: string, over: Record<string, unknown> = {}) {
  const id = paymentIdOf("u-rec", randomUUID());
  const row = {
    pk: `PAY#${id}`,
    sk: "PAYMENT",
    payment_id: id,
    state,
    amount: 3000,
    currency: "USD",
    merchant_id: "m1",
    created_at: Date.now(),
    updated_at: Date.now(),
    ...over,
  };
  await tablesOf(stack()).db.send(new PutCommand({ TableName: env().LEDGER_TABLE, Item: row }));
  return id;
}

interface Report {
  matched: { count: number; sums: Record<string, number> };
  too_recent: number;
  discrepancies: Array<{ kind: string; payment_id: string }>;
}

/** `npm run reconcile -- --since <sinceMs> --json`, with its report parsed. */
async function reconcileReport(sinceMs: number, over: Record<string, string> = {}) {
  const run = await runScript(
    "scripts/reconcile.ts",
    ["--env", "--since", new Date(sinceMs).toISOString(), "--json"],
    {
      ...env(),
      ...over,
    },
  );
  const report = JSON.parse(run.stdout || "{}") as Report;
  const found = (id: string) => report.discrepancies.filter((d) => d.payment_id === id).map((d) => d.kind);
  return { ...run, report, found };
}

describe("npm run reconcile", () => {
  // First, while the ledger holds nothing else: every row it plants is in this run's period.
  it("reports every kind of discrepancy it plants, and exits 1", async () => {
    // prepare: one of each kind, the charges made ten minutes ago
    const charge = (reference: string, amount?: number, currency?: string) =>
      pspCharge(reference, amount, currency, earlier.url);
    const orphan = paymentIdOf("u-rec", randomUUID());
    await charge(orphan);
    const noCharge = await ledgerRow("SUCCEEDED", { psp_charge: "ch_never" });
    const amount = await ledgerRow("SUCCEEDED", { amount: 3500 });
    await charge(amount, 3000);
    const currency = await ledgerRow("SUCCEEDED", { currency: "EUR" });
    await charge(currency, 3000, "usd");
    const failed = await ledgerRow("FAILED");
    await charge(failed);
    const refunded = await ledgerRow("REFUNDED");
    await charge(refunded);
    const stale = await ledgerRow("UNKNOWN", { created_at: Date.now() - 2 * 3_600_000 });
    // one order paid twice with two keys (issue 40): each row matches its own charge
    const sameOrder = { caller: "u-rec", order_id: `o-${randomUUID()}` };
    const once = await ledgerRow("SUCCEEDED", { ...sameOrder, created_at: Date.now() - 60_000 });
    await charge(once);
    const twice = await ledgerRow("SUCCEEDED", sameOrder);
    await charge(twice);
    // act
    const run = await reconcileReport(Date.now() - 3 * 3_600_000, { PSP_URL: earlier.url });
    // assess
    expect(run.code, run.out).toBe(1);
    expect(run.found(orphan)).toEqual(["charge-without-row"]);
    expect(run.found(noCharge)).toEqual(["succeeded-without-charge"]);
    expect(run.found(amount)).toEqual(["amount-mismatch"]);
    expect(run.found(currency)).toEqual(["currency-mismatch"]);
    expect(run.found(failed)).toEqual(["failed-but-charged"]);
    expect(run.found(refunded)).toEqual(["refunded-not-refunded"]);
    expect(run.found(stale)).toEqual(["stale-unknown"]);
    expect(run.found(once)).toEqual([]);
    expect(run.found(twice)).toEqual(["duplicate-order"]);
    expect(run.report.too_recent).toBe(0);
  });

  it("matches real payments, a refund included: exit 0 with the counts and sums", async () => {
    // prepare
    const from = new Date().toISOString();
    const token = await api().token("u-rec");
    await api().pay(token, newKey(), order42());
    const refunded = await api().pay(token, newKey(), order42({ amount: 1200 }));
    await api().cancel(token, String(refunded.body.payment_id));
    await asyncQuiet(stack());
    // act
    const run = await reconcile("--since", from);
    // assess
    expect(run.code, run.out).toBe(0);
    expect(run.out).toMatch(/matched 2 \(4200 USD\)/);
    expect(run.out).toMatch(/too recent 0/);
    expect(run.out).toMatch(/the PSP and the ledger match \(exit 0\)/);
  });

  it("refuses bad usage (exit 2) and an unreachable PSP (exit 1, nothing compared)", async () => {
    const usage = await reconcile("--since", "yesterday");
    const down = await runScript("scripts/reconcile.ts", ["--env", "--since", since], {
      ...env(),
      PSP_URL: "http://127.0.0.1:9",
    });
    expect(usage.code).toBe(2);
    expect(usage.out).toMatch(/usage: npm run reconcile/);
    expect(down.code).toBe(1);
    expect(down.out).toMatch(/nothing compared/);
  });
});

/**
 * The start of a new period, on a fresh second: the PSP lists charges by whole seconds, so a period that began in the
 * second of the test before's last charge would list that charge too.
 */
async function freshPeriod(): Promise<number> {
  await new Promise((r) => setTimeout(r, 1_000 - (Date.now() % 1_000) + 5));
  return Date.now();
}

// Each run below starts its period on a fresh second as it begins: what earlier tests left is before it.
describe("npm run reconcile at the edges of its period: what matches is not reported", () => {
  it("a payment written just before the period, charged inside it, matches (the ledger's look-back)", async () => {
    // prepare
    const from = await freshPeriod();
    const edge = await ledgerRow("SUCCEEDED", { created_at: from - 2_000 });
    await pspCharge(edge);
    // act
    const run = await reconcileReport(from);
    // assess
    expect(run.code, run.out).toBe(0);
    expect(run.found(edge)).toEqual([]);
    expect(run.report.matched).toEqual({ count: 1, sums: { USD: 3000 } });
    expect(run.report.too_recent).toBe(0);
  });

  it("a payment the resolver replayed hours after its row was written matches; a row of an earlier period is left alone", async () => {
    // prepare: an unknown from three hours before the period that a replay charged now, and yesterday's payment
    const from = await freshPeriod();
    const replayed = await ledgerRow("SUCCEEDED", { created_at: from - 3 * 3_600_000 });
    await pspCharge(replayed);
    const earlierPeriod = await ledgerRow("SUCCEEDED", {
      created_at: from - 2 * 3_600_000,
      psp_charge: "ch_before",
    });
    // act
    const run = await reconcileReport(from);
    // assess
    expect(run.code, run.out).toBe(0);
    expect(run.found(replayed)).toEqual([]);
    expect(run.found(earlierPeriod)).toEqual([]);
    expect(run.report.matched).toEqual({ count: 1, sums: { USD: 3000 } });
    expect(run.report.too_recent).toBe(0);
  });

  it("a row that lost to a later write of an earlier state is judged as its journal entry makes it: it matches", async () => {
    // prepare: the row says UNKNOWN since hours (the other Region's older copy won), its charge's entry is here; no
    // webhook until the run is over, since it would move the row itself
    const from = await freshPeriod();
    const lost = await ledgerRow("UNKNOWN", { created_at: from - 2 * 3_600_000 });
    stack().psp.setWebhookUrl(undefined);
    try {
      const charge = await pspCharge(lost);
      const entry = {
        pk: `PAY#${lost}`,
        sk: "JOURNAL#1",
        psp_charge: charge,
        legs: [],
        at: from - 3_600_000,
      };
      await tablesOf(stack()).db.send(new PutCommand({ TableName: env().LEDGER_TABLE, Item: entry }));
      // act
      const run = await reconcileReport(from);
      // assess
      expect(run.code, run.out).toBe(0);
      expect(run.found(lost)).toEqual([]);
      expect(run.report.matched).toEqual({ count: 1, sums: { USD: 3000 } });
    } finally {
      stack().psp.setWebhookUrl(`${stack().apiUrl}/webhooks/psp`);
    }
  });

  it("a charge made just before the ledger scan, its row still in flight, is counted too recent, not lost", async () => {
    // prepare
    const from = await freshPeriod();
    const inFlight = paymentIdOf("u-rec", randomUUID());
    await pspCharge(inFlight);
    // act
    const run = await reconcileReport(from);
    // assess
    expect(run.code, run.out).toBe(0);
    expect(run.found(inFlight)).toEqual([]);
    expect(run.report.too_recent).toBe(1);
    expect(run.out).toMatch(/too recent 1/);
  });

  it("a payment made between the two reads matches, whichever side is read first", async () => {
    // prepare: real sources, with a real payment as soon as the first side has been read
    const from = await freshPeriod();
    const real = reconcileSources({
      db: tablesOf(stack()).db,
      ledgerTable: env().LEDGER_TABLE,
      pspUrl: stack().psp.url,
      apiKey: () => "sk_local",
    });
    let paid: Promise<{ status: number }> | undefined;
    const thenPay = async <T>(read: Promise<T>): Promise<T> => {
      const records = await read;
      paid ??= api()
        .token("u-rec")
        .then((token) => api().pay(token, newKey(), order42()));
      await paid;
      return records;
    };
    const sources: ReconcileSources = {
      charges: (sinceS, progress) => thenPay(real.charges(sinceS, progress)),
      payments: (sinceMs, progress) => thenPay(real.payments(sinceMs, progress)),
    };
    // act
    const report = await reconcileSince(sources, {
      sinceMs: from,
      now: Date.now(),
      staleMs: DEFAULT_STALE_MS,
    });
    // assess
    expect((await paid)?.status).toBe(201);
    expect(report.discrepancies).toEqual([]);
    expect(report.too_recent).toBe(1);
  });
});
