import { describe, expect, it } from "vitest";
import type { PaymentRow } from "../src/ledger/ledger-items";
import type { PaymentDeps } from "../src/payment/payment-deps";
import { replayCharge } from "../src/payment/replay-charge";
import type { PspPort, PspReply } from "../src/psp/psp-port";

const DAY_MS = 24 * 60 * 60 * 1000;

// Ports enough for one lookup: a PSP that records what findCharge was asked, a budget that always has a slot.
function depsRecording(asked: unknown[]): PaymentDeps {
  const found: PspReply = { kind: "done", id: "pi_1" };
  const psp: Partial<PspPort> = {
    findCharge: async (...args: unknown[]) => {
      asked.push(args);
      return found;
    },
  };
  return {
    psp,
    pspBudget: { reserve: async () => ({ granted: true, atMs: Date.now() }) },
    config: { deadlineMs: 5_000, pspKeyWindowS: 86_400, pspBudgetMaxWaitMs: 1_000, pspNotFoundSettleS: 600 },
    clock: { now: () => Date.now() },
  } as unknown as PaymentDeps;
}

describe("lost PSP reply (Part 4): the lookup is told when the charge can have been sent", () => {
  it("replayCharge hands findCharge the row's creation time less a deadline to it plus the key window", async () => {
    // prepare
    const asked: unknown[] = [];
    const createdAt = Date.now() - 60_000;
    const row = { payment_id: "pay_1", created_at: createdAt } as PaymentRow;
    // act
    const reply = await replayCharge(depsRecording(asked), row, Date.now() + 5_000, {
      origin: "resolver",
      lookupOnly: true,
    });
    // assess
    expect(reply).toEqual({ kind: "done", id: "pi_1" });
    expect(asked).toHaveLength(1);
    expect((asked[0] as unknown[])[2]).toBe("resolver");
    expect((asked[0] as Array<{ windows?: unknown }>)[3]?.windows).toEqual([
      { fromMs: createdAt - 5_000, toMs: createdAt + DAY_MS + 5_000 },
    ]);
  });
});
