import { randomUUID } from "node:crypto";
import { armFault, clearFaults, crashPoint, InvocationCrashed, paymentIdOf, runCrashable } from "@eo/core";
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";

// A short deadline and margin, so that the retry after a dead owner's lease comes within a second or two.
Object.assign(process.env, { DEADLINE_MS: "1500", CLOCK_MARGIN_MS: "100", TAKEOVER_MARGIN_MS: "400" });

const order = {
  order_id: "42",
  amount: 3000,
  currency: "USD",
  payment_method: "pm_1",
  merchant_id: "m-crash",
};

afterEach(() => clearFaults());

describe("an invocation that dies between two writes (crash_at)", () => {
  it("never resumes: no catch or finally block of the handler runs, and the runtime hears the crash", async () => {
    // prepare
    armFault("crash_at", 1, 1); // pay.after_guard is the second point
    const ran: string[] = [];
    // act
    const outcome = await runCrashable(async () => {
      try {
        await crashPoint("pay.after_guard");
        ran.push("after");
      } catch {
        ran.push("catch");
      } finally {
        ran.push("finally");
      }
    }).catch((err: unknown) => err);
    await new Promise((r) => setTimeout(r, 50));
    // assess
    expect(outcome).toBeInstanceOf(InvocationCrashed);
    expect((outcome as InvocationCrashed).point).toBe("pay.after_guard");
    expect(ran).toEqual([]);
  });

  describe("after the durable guard, on the local stack", () => {
    const stack = useLocalStack();
    it("answers 500, leaves the claim IN_PROGRESS and the row PENDING as a dead Lambda would; the retry charges once", async () => {
      // prepare
      const api = new ApiClient(stack().apiUrl);
      const caller = `crash-${randomUUID().slice(0, 8)}`;
      const token = await api.token(caller);
      const key = randomUUID();
      const paymentId = paymentIdOf(caller, key);
      // A warm handler: a cold start's module loading would eat the short deadline before the PSP slot.
      await api.pay(token, randomUUID(), { ...order, order_id: "warm-up" });
      await api.local("POST", "/faults", { crash_at: "pay.after_guard", n: 1 });
      // act
      const died = await api.pay(token, key, order);
      const t = tablesOf(stack());
      const claimAfterCrash = await t.claim(`payments:${caller}:${key}`);
      const rowAfterCrash = await t.payment(paymentId);
      const chargedAfterCrash = stack()
        .psp.charges()
        .filter((c) => c.reference === paymentId).length;
      await new Promise((r) => setTimeout(r, 2_100));
      const retry = await api.pay(token, key, order);
      // assess
      expect(died.status, JSON.stringify(died.body)).toBe(500);
      expect(claimAfterCrash?.status).toBe("INPROGRESS");
      expect(rowAfterCrash?.state).toBe("PENDING");
      expect(chargedAfterCrash).toBe(0);
      expect(retry.status).toBe(201);
      expect(retry.body.payment_id).toBe(paymentId);
      expect(
        stack()
          .psp.charges()
          .filter((c) => c.reference === paymentId),
      ).toHaveLength(1);
    }, 20_000);
  });
});
