import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { advanceClock } from "../../packages/core/src/clock/clock";
import { paymentIdOf } from "../../packages/core/src/ids/derive-ids";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";
import { chargeAtThePsp } from "../support/psp-direct";
import { makeActive } from "../support/regions";
import { asyncQuiet } from "../support/tables";

// The nightly reconcile as AWS runs it (the CronV2 handler, in this process on the primary's environment): what it
// finds is a metric for the alarm, never an error; only a side it could not read fails the run.
process.env.POWERTOOLS_METRICS_DISABLED ??= "true";
const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);

/** The reconcile handler, and the metrics and logs it gives while `act` runs. */
async function nightlyRun(act: (run: () => Promise<unknown>) => Promise<unknown>) {
  const { handler } = await import("../../packages/functions/src/cron/reconcile");
  const { logger, metrics } = await import("../../packages/functions/src/shared/observability");
  const added = vi.spyOn(metrics, "addMetric");
  const logs = [vi.spyOn(logger, "info"), vi.spyOn(logger, "error")];
  const fetched = vi.spyOn(globalThis, "fetch");
  try {
    const outcome = await act(handler).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    // Read before the spies are restored, which forgets their calls.
    const calls = [...added.mock.calls];
    const metric = (name: string) => calls.filter((c) => c[0] === name).map((c) => Number(c[2]));
    const logged = JSON.stringify(logs.map((l) => l.mock.calls));
    const pspLists = fetched.mock.calls.filter((c) => String(c[0]).includes("/v1/charges")).length;
    return { ...outcome, metric, logged, pspLists };
  } finally {
    for (const spy of [added, ...logs, fetched]) spy.mockRestore();
  }
}

/** A charge made at the PSP directly, under our reference, with no ledger row: a lost payment. */
async function orphanCharge(): Promise<string> {
  const reference = paymentIdOf("u-cron", randomUUID());
  await chargeAtThePsp(stack(), reference);
  return reference;
}

afterEach(async () => {
  await makeActive(stack(), "primary");
});

describe("the nightly reconcile cron", () => {
  it("after a clean day publishes zero discrepancies, the matched count and its run", async () => {
    // prepare
    const token = await api().token("u-cron");
    await api().pay(token, newKey(), order42());
    await asyncQuiet(stack());
    // act
    const run = await nightlyRun((handler) => handler());
    // assess
    expect(run).not.toHaveProperty("error");
    expect(run.metric("ReconcileDiscrepancies")).toEqual([0]);
    expect(run.metric("ReconcileMatched")).toEqual([1]);
    expect(run.metric("ReconcileRuns")).toEqual([1]);
    expect(run.logged).toMatch(/reconcile summary/);
  });

  it("publishes a lost payment as a discrepancy and does not fail the run; the log names it, never the card", async () => {
    // prepare: two minutes on, the charge still has no row (a younger one's row could still be in flight)
    const lost = await orphanCharge();
    advanceClock(2 * 60_000);
    // act
    const run = await nightlyRun((handler) => handler());
    // assess
    expect(run).not.toHaveProperty("error");
    expect(run.metric("ReconcileDiscrepancies")).toEqual([1]);
    expect(run.metric("ReconcileRuns")).toEqual([1]);
    expect(run.logged).toContain(lost);
    expect(run.logged).toContain("charge-without-row");
    expect(run.logged).toContain('"too_recent":0');
    expect(run.logged).not.toContain("pm_1");
  });

  it("fails the run when the PSP cannot be listed, and publishes nothing (the not-run alarm's case)", async () => {
    // prepare
    const pspUrl = process.env.PSP_URL;
    process.env.PSP_URL = "http://127.0.0.1:9";
    // act
    const run = await nightlyRun((handler) => handler()).finally(() => {
      process.env.PSP_URL = pspUrl;
    });
    // assess
    expect(run).toHaveProperty("error");
    expect(run.metric("ReconcileRuns")).toEqual([]);
    expect(run.metric("ReconcileDiscrepancies")).toEqual([]);
  });

  it("in a passive Region lists nothing and only counts its run", async () => {
    // prepare
    await orphanCharge();
    await makeActive(stack(), "standby");
    // act
    const run = await nightlyRun((handler) => handler());
    // assess
    expect(run).toMatchObject({ result: { passive: true } });
    expect(run.pspLists).toBe(0);
    expect(run.metric("ReconcileDiscrepancies")).toEqual([]);
    expect(run.metric("ReconcileRuns")).toEqual([1]);
    expect(run.logged).toMatch(/this Region is passive/);
  });
});
