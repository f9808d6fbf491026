import { afterEach, describe, expect, it } from "vitest";
import { ChaosApi } from "../../scripts/lib/chaos/chaos-api";
import { CHAOS_STACK_OPTIONS, chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import type { RunRecord } from "../../scripts/lib/chaos/history";
import { runOne } from "../../scripts/lib/chaos/run-one";
import type { Schedule } from "../../scripts/lib/chaos/schedule";
import { useLocalStack } from "../support/local-stack";

Object.assign(process.env, chaosEnv());

// The real-world nemesis's order whose card is Stripe's pm_card_refundFail: its refunds succeed, then Stripe fails
// them 2 s later (refund.failed). Runs in Stripe's dialect only (vitest.config.ts, STRIPE_ONLY).
const refundFailsLater = (cancels: number): Schedule => ({
  orders: [{ caller: 0, merchant: 0, amount: 3000, declined: false, refundFails: true }],
  steps: [
    { op: "pay", order: 0, fault: { kind: "none" } },
    ...Array.from({ length: cancels }, () => [
      { op: "cancel" as const, order: 0, fault: "none" as const },
      { op: "later" as const, seconds: 30 },
    ]).flat(),
  ],
});

const finalOf = (record: RunRecord) =>
  record.final as {
    charges: Array<{ refunded: boolean; refunds_failed?: number }>;
    payments: Record<string, { state?: string }>;
  };

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_NO_REFUND_TAKE_BACK;
});

describe("a refund that Stripe fails later, judged by the fault checker", () => {
  const stack = useLocalStack(CHAOS_STACK_OPTIONS);

  it("ends REFUND_FAILED with the debit taken back and the buyer told: no violation", async () => {
    // act
    const record = await runOne(new ChaosApi(stack().apiUrl), refundFailsLater(1));
    // assess
    expect(record.violations).toEqual([]);
    expect(finalOf(record).charges).toEqual([
      expect.objectContaining({ refunded: false, refunds_failed: 1 }),
    ]);
    expect(Object.values(finalOf(record).payments).map((p) => p.state)).toEqual(["REFUND_FAILED"]);
  }, 60_000);

  it("cancelled again, before the failure was heard (a replay) or after it (attempt 2, which fails too): no violation", async () => {
    // act
    const record = await runOne(new ChaosApi(stack().apiUrl), refundFailsLater(2));
    // assess
    expect(record.violations).toEqual([]);
    const [charge] = finalOf(record).charges;
    expect([1, 2]).toContain(charge?.refunds_failed);
    expect(Object.values(finalOf(record).payments).map((p) => p.state)).toEqual(["REFUND_FAILED"]);
  }, 60_000);

  it("without the take-back (EO_TEST_UNSAFE_NO_REFUND_TAKE_BACK) the checker finds the merchant debited and the buyer untold", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_REFUND_TAKE_BACK = "1";
    // act
    const record = await runOne(new ChaosApi(stack().apiUrl), refundFailsLater(1));
    // assess
    expect(record.violations.map((v) => v.check)).toContain("credited-once");
  }, 60_000);
});
