import { randomUUID } from "node:crypto";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { paymentIdOf } from "../../packages/core/src/ids/derive-ids";
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
const reconcile = (...args: string[]) => runScript("scripts/reconcile.ts", args, env());

/** A charge made at the PSP directly, under our reference, as a lost request or a bad manual edit would leave. */
async function pspCharge(reference: string, amount = 3000, currency = "usd") {
  const res = await fetch(`${stack().psp.url}/v1/charges`, {
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

describe("npm run reconcile", () => {
  it("matches real payments, a refund included: exit 0 with the counts and sums", async () => {
    // prepare
    const token = await api().token("u-rec");
    await api().pay(token, newKey(), order42());
    const refunded = await api().pay(token, newKey(), order42({ amount: 1200 }));
    await api().cancel(token, String(refunded.body.payment_id));
    await asyncQuiet(stack());
    // act
    const run = await reconcile("--since", since);
    // assess
    expect(run.code, run.out).toBe(0);
    expect(run.out).toMatch(/matched 2 \(4200 USD\)/);
    expect(run.out).toMatch(/the PSP and the ledger match \(exit 0\)/);
  });

  it("reports every kind of discrepancy it plants, and exits 1", async () => {
    // prepare: one of each kind
    const orphan = paymentIdOf("u-rec", randomUUID());
    await pspCharge(orphan);
    const noCharge = await ledgerRow("SUCCEEDED", { psp_charge: "ch_never" });
    const amount = await ledgerRow("SUCCEEDED", { amount: 3500 });
    await pspCharge(amount, 3000);
    const currency = await ledgerRow("SUCCEEDED", { currency: "EUR" });
    await pspCharge(currency, 3000, "usd");
    const failed = await ledgerRow("FAILED");
    await pspCharge(failed);
    const refunded = await ledgerRow("REFUNDED");
    await pspCharge(refunded);
    const stale = await ledgerRow("UNKNOWN", { created_at: Date.now() - 2 * 3_600_000 });
    // act
    const run = await reconcile("--since", new Date(Date.now() - 3 * 3_600_000).toISOString(), "--json");
    // assess
    expect(run.code, run.out).toBe(1);
    const report = JSON.parse(run.stdout) as { discrepancies: Array<{ kind: string; payment_id: string }> };
    const found = (id: string) => report.discrepancies.filter((d) => d.payment_id === id).map((d) => d.kind);
    expect(found(orphan)).toEqual(["charge-without-row"]);
    expect(found(noCharge)).toEqual(["succeeded-without-charge"]);
    expect(found(amount)).toEqual(["amount-mismatch"]);
    expect(found(currency)).toEqual(["currency-mismatch"]);
    expect(found(failed)).toEqual(["failed-but-charged"]);
    expect(found(refunded)).toEqual(["refunded-not-refunded"]);
    expect(found(stale)).toEqual(["stale-unknown"]);
  });

  it("refuses bad usage (exit 2) and an unreachable PSP (exit 1, nothing compared)", async () => {
    const usage = await reconcile("--since", "yesterday");
    const down = await runScript("scripts/reconcile.ts", ["--since", since], {
      ...env(),
      PSP_URL: "http://127.0.0.1:9",
    });
    expect(usage.code).toBe(2);
    expect(usage.out).toMatch(/usage: npm run reconcile/);
    expect(down.code).toBe(1);
    expect(down.out).toMatch(/nothing compared/);
  });
});
