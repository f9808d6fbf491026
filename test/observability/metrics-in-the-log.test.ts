/**
 * The metrics on-call reads, as the handlers write them: embedded-metric-format lines in the log output. These
 * need no store (the one error-to-HTTP mapping, the PSP budget's outcome, an authority that cannot be read);
 * the ones that cross a store are in metrics-with-the-stack.test.ts.
 */
import type { Context } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { watchEmf } from "../support/emf";

const emf = watchEmf();
// Imported after watchEmf, so that the shared Metrics instance is created enabled and the domain's sink installed.
const { httpHandler } = await import("@eo/functions/shared/http-handler");
await import("@eo/functions/shared/observability");
const { Refusal, withinBudget, activeRegion } = await import("@eo/core");

const context = {
  functionName: "test",
  awsRequestId: "r1",
  getRemainingTimeInMillis: () => 5_000,
} as unknown as Context;
const getEvent = (path: string) =>
  ({ rawPath: path, headers: {}, requestContext: { http: { method: "GET" } } }) as never;

beforeAll(() => emf.clear());
afterAll(() => emf.stop());

describe("payment answers, counted where errors become HTTP", () => {
  it("counts a success by its status, a refusal by status and problem kind, a crash as 500 internal", async () => {
    // prepare
    const ok = httpHandler("get-payment", async () => ({ status: 202, body: {} }));
    const refused = httpHandler("get-payment", async () => {
      throw new Refusal("psp-unavailable", "our share of the PSP's rate limit is spent", 2);
    });
    const crashed = httpHandler("get-payment", async () => {
      throw new Error("boom");
    });
    const device = httpHandler("delete-device", async () => ({ status: 204 }));
    // act
    await ok(getEvent("/payments/p1"), context);
    await refused(getEvent("/payments/p1"), context);
    await crashed(getEvent("/payments/p1"), context);
    await device(getEvent("/devices/d1"), context);
    // assess
    expect(emf.of("PaymentAnswers", { Status: "202", Kind: "none" })).toHaveLength(1);
    expect(emf.of("PaymentAnswers", { Status: "503", Kind: "psp-unavailable" })).toHaveLength(1);
    expect(emf.of("PaymentAnswers", { Status: "500", Kind: "internal" })).toHaveLength(1);
    expect(emf.of("PaymentAnswers")).toHaveLength(3);
    expect(emf.of("PaymentAnswers")[0]?.namespace).toBe("EffectivelyOnce");
    expect(emf.of("PaymentAnswers")[0]?.dimensions.service).toBe("effectively-once");
  });
});

describe("PSP calls by origin and outcome", () => {
  const clock = { now: () => Date.now() };
  const call = (origin: "live" | "resolver") => ({
    endpoint: "POST /v1/charges" as const,
    origin,
    untilMs: Date.now() + 10_000,
    maxWaitMs: 100,
  });

  it("counts our budget refusing a call (no slot) as budget-refused", async () => {
    // prepare
    emf.clear();
    const spent = { reserve: async () => ({ granted: false as const, retryAfterMs: 1_000 }) };
    // act
    const reply = await withinBudget(spent, clock, call("resolver"), async () => ({
      kind: "done",
      id: "ch_1",
    }));
    // assess
    expect(reply).toMatchObject({ kind: "rate-limited", by: "budget" });
    expect(emf.of("PspCalls", { Origin: "resolver", Outcome: "budget-refused" })).toHaveLength(1);
    expect(emf.of("PspBudgetRefused")).toHaveLength(1);
  });

  it("counts each call the PSP answered: ok, and a 429 (throttled) sent again", async () => {
    // prepare
    emf.clear();
    const free = { reserve: async () => ({ granted: true as const, atMs: Date.now() }) };
    const replies = [
      { kind: "rate-limited" as const, retryAfterMs: 10, by: "psp" as const },
      { kind: "done" as const, id: "ch_1" },
    ];
    // act
    const reply = await withinBudget(
      free,
      clock,
      call("live"),
      async () => replies.shift() ?? { kind: "not-found" },
    );
    // assess
    expect(reply).toEqual({ kind: "done", id: "ch_1" });
    expect(emf.of("PspCalls", { Origin: "live", Outcome: "429" })).toHaveLength(1);
    expect(emf.of("PspCalls", { Origin: "live", Outcome: "ok" })).toHaveLength(1);
    expect(emf.of("PspThrottled")).toHaveLength(1);
  });
});

describe("the Region's view of the authority", () => {
  it("counts a read of the authority that failed (the Region is passive while it lasts)", async () => {
    // prepare
    emf.clear();
    const unreachable = {
      read: async () => {
        throw new Error("connect ETIMEDOUT");
      },
      write: async () => undefined,
    };
    const gate = activeRegion("primary", unreachable as never, Date.now, {
      controlCacheMs: 0,
      fenceCacheMs: 0,
    });
    // act
    const active = await gate.isActive();
    // assess
    expect(active).toBe(false);
    expect(emf.of("AuthorityReadFailures").map((m) => m.value)).toEqual([1]);
  });
});
