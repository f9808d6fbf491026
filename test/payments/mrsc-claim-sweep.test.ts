import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { claimDocumentClient } from "../../packages/core/src/aws/document-client";
import { clock } from "../../packages/core/src/clock/clock";
import { paymentDeps } from "../../packages/core/src/payment/payment-wiring";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";

// MRSC mode: the claim table has no TTL, so nothing but the sweeps removes its expired items.
process.env.CLAIM_MODE = "mrsc";
const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);
const claimCalls: string[] = [];
/** Runs just before the sweep's delete of one claim reaches the table: a request renewing it meanwhile. */
let beforeDelete: { id: string; run: () => Promise<void> } | undefined;

beforeAll(() => {
  // The claim store's own client in MRSC mode, which the sweeps use for the claim table.
  claimDocumentClient(undefined, true).middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { TableName?: string; Key?: { id?: unknown } };
      if (input.TableName !== claimTable()) return next(args);
      claimCalls.push(context.commandName ?? "?");
      const hook = beforeDelete;
      if (hook && /Delete/.test(context.commandName ?? "") && idOf(input.Key?.id) === hook.id) {
        beforeDelete = undefined;
        await hook.run();
      }
      return next(args);
    },
    { step: "initialize", name: "claimSweepSpy" },
  );
});
afterEach(() => {
  beforeDelete = undefined;
  delete process.env.EO_TEST_UNSAFE_UNCONDITIONAL_CLAIM_SWEEP;
});
afterAll(() => {
  delete process.env.CLAIM_MODE;
});

const claimTable = () => stack().emulators.regions.primary.claimTable;
const idOf = (key: unknown) => (typeof key === "object" && key ? (key as { S?: string }).S : key);
const runSweeps = async () =>
  (await api().local("POST", "/run/sweeps")).body.result as {
    claims?: { examined: number; deleted: number; kept: number };
  };
const rateItems = async () => {
  const out = await tablesOf(stack()).db.send(
    new ScanCommand({
      TableName: claimTable(),
      FilterExpression: "begins_with(id, :r)",
      ExpressionAttributeValues: { ":r": "BUDGET#" },
    }),
  );
  return (out.Items ?? []).map((i) => String(i.id)).sort();
};
const claimOf = (caller: string, key: string) => tablesOf(stack()).claim(`payments:${caller}:${key}`);

describe("the sweeps clean the MRSC claim table (no TTL there)", () => {
  it("delete expired claims, voids and idle PSP budget buckets; live ones stay, and the ledger still answers", async () => {
    // prepare: a claim, a void and the resolver's budget bucket, all past their expiry two hours on
    const token = await api().token("u-sweep");
    const [oldKey, voidKey, liveKey] = [newKey(), newKey(), newKey()];
    await api().pay(token, oldKey, order42());
    await api().resolve(token, voidKey);
    await paymentDeps().pspBudget.reserve("GET /v1/charges", "resolver", 5_000);
    const oldRate = await rateItems();
    await api().local("POST", "/clock", { advance_s: 7_200 });
    await api().pay(token, liveKey, order42());
    claimCalls.length = 0;
    // act
    const report = await runSweeps();
    // assess
    expect(report.claims).toEqual({ examined: 4, deleted: 4, kept: 0 });
    expect(await claimOf("u-sweep", oldKey)).toBeUndefined();
    expect(await claimOf("u-sweep", voidKey)).toBeUndefined();
    expect(await claimOf("u-sweep", liveKey)).toMatchObject({ status: "COMPLETED" });
    const rateAfter = await rateItems();
    expect(oldRate).toEqual([
      "BUDGET#psp#GET /v1/charges",
      "BUDGET#psp#POST /v1/charges",
      "BUDGET#psp#resolver",
    ]);
    expect(rateAfter).toEqual(["BUDGET#psp#POST /v1/charges"]);
    expect(claimCalls.filter((c) => /Transact|Batch/.test(c))).toEqual([]);
    // correctness never rested on the claim: the ledger answers both keys as before
    const back = await api().pay(token, oldKey, order42());
    expect([back.status, back.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    expect((await api().pay(token, voidKey, order42())).status).toBe(409);
  });

  /** A claim past its expiry whose owner comes back just as the sweep is about to delete it. */
  async function renewedBetweenScanAndDelete() {
    const token = await api().token("u-renew");
    const key = newKey();
    await api().pay(token, key, order42());
    await api().local("POST", "/clock", { advance_s: 7_200 });
    let renewed: Awaited<ReturnType<ApiClient["pay"]>> | undefined;
    beforeDelete = {
      id: `payments:u-renew:${key}`,
      run: async () => {
        renewed = await api().pay(token, key, order42());
      },
    };
    const report = await runSweeps();
    return { report, renewed, claim: await claimOf("u-renew", key) };
  }

  it("keep a claim renewed between the scan and the delete: the delete's condition is read again", async () => {
    // act
    const { report, renewed, claim } = await renewedBetweenScanAndDelete();
    // assess
    expect(renewed?.status).toBe(201);
    // Kept: the claim, and the PSP budget's bucket too when the scan reached it after the renewed request used it.
    expect(report.claims?.kept).toBeGreaterThanOrEqual(1);
    expect(claim).toMatchObject({ status: "COMPLETED" });
    expect(claim?.expiration).toBeGreaterThan(Math.floor(clock.now() / 1000));
  });

  it("with the delete unconditional (guard off) the renewed claim is deleted under its new owner", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_UNCONDITIONAL_CLAIM_SWEEP = "1";
    // act
    const { report, renewed, claim } = await renewedBetweenScanAndDelete();
    // assess
    expect(renewed?.status).toBe(201);
    expect(report.claims).toMatchObject({ kept: 0 });
    expect(claim).toBeUndefined();
  });
});
