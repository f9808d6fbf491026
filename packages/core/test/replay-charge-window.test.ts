import { describe, expect, it } from "vitest";
import type { PaymentRow } from "../src/ledger/ledger-items";
import type { PaymentDeps } from "../src/payment/payment-deps";
import { sendWindowsOf, withSend } from "../src/payment/psp-sends";
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

describe("each charge send recorded before it goes (issue 39): the lookup lists only around the sends", () => {
  it("the resolver's replay writes the send's time on the row first, then sends", async () => {
    // prepare
    const order: string[] = [];
    const deps = depsRecording([]);
    deps.psp.charge = async () => {
      order.push("send");
      return { kind: "done", id: "pi_1" };
    };
    (deps as { ledger: unknown }).ledger = {
      recordPspSends: async (s: { after: number[] }) => {
        order.push(`record ${s.after.length}`);
        return true;
      },
    };
    const row = { payment_id: "pay_2", state: "UNKNOWN", created_at: Date.now() - 60_000 } as PaymentRow;
    row.psp_sends = [row.created_at];
    // act
    await replayCharge(deps, row, Date.now() + 5_000, { origin: "resolver" });
    // assess
    expect(order).toEqual(["record 2", "send"]);
    expect(row.psp_sends).toHaveLength(2);
  });

  it("lists a deadline after each send; a full list (sends dropped) lists its first gap whole", () => {
    // prepare
    const deps = depsRecording([]);
    const t = Date.now() - DAY_MS;
    const two = { created_at: t, psp_sends: [t, t + 60_000] } as PaymentRow;
    const full = {
      created_at: t,
      psp_sends: [t, t + 3_600_000, ...[2, 3, 4, 5].map((h) => t + h * 3_600_000)],
    };
    // act
    const windows = sendWindowsOf(deps, two);
    const fullWindows = sendWindowsOf(deps, full as PaymentRow);
    // assess
    expect(windows).toEqual([
      { fromMs: t, toMs: t + 5_000 },
      { fromMs: t + 60_000, toMs: t + 65_000 },
    ]);
    expect(fullWindows[0]).toEqual({ fromMs: t, toMs: t + 3_605_000 });
    expect(withSend(full.psp_sends, t + 6 * 3_600_000)).toEqual([
      t,
      ...full.psp_sends.slice(2),
      t + 6 * 3_600_000,
    ]);
  });
});
