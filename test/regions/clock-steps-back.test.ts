import { afterEach, describe, expect, it, vi } from "vitest";
import type { Clock } from "../../packages/core/src/clock/clock";
import type { PspBudget } from "../../packages/core/src/psp-budget/psp-budget";
import { withinBudget } from "../../packages/core/src/psp-budget/within-budget";
import { activeRegion } from "../../packages/core/src/region/active-region";
import { control, controlStore } from "./support/memory-control";

// A clock that steps back (an NTP step on AWS; the simulation's next world, issue 42). Both traces were found by
// replaying the kept regressions one after another in one simulation process: 6 of 19 failed before the fixes.

/** The primary read the authority at 10:00:05 (it was active); the clock steps back 5 s; then a failover named the standby. */
async function primaryReadBeforeTheStep() {
  let now = Date.UTC(2026, 0, 1, 10, 0, 5);
  const store = controlStore(control("primary", 1));
  const gate = activeRegion("primary", store, () => now, { controlCacheMs: 2_000, fenceCacheMs: 250 });
  await gate.assertActive();
  now -= 5_000;
  store.set(control("standby", 2));
  return gate;
}

const budget = (spacingMs: number): PspBudget => ({
  reserve: async () => ({ granted: true, atMs: Date.now(), spacingMs }),
});
const wallClock: Clock = { now: () => Date.now() };

/** Fills one second of sends to the refunds endpoint at 10:01:00, then steps the clock back a minute. */
async function sendsBeforeTheStep(): Promise<void> {
  vi.useFakeTimers({ toFake: ["Date", "setTimeout"] });
  vi.setSystemTime(Date.UTC(2026, 0, 1, 10, 1, 0));
  const call = { endpoint: "GET /v1/refunds" as const, origin: "live" as const, maxWaitMs: 5_000 };
  for (let i = 0; i < 2; i++)
    await withinBudget(budget(500), wallClock, { ...call, untilMs: Date.now() + 10_000 }, async () => ({
      kind: "done",
      id: "ch_1",
    }));
  vi.setSystemTime(Date.UTC(2026, 0, 1, 10, 0, 0));
}

/** Sends once more after the step; answers whether it went within `withinMs` of the clock. */
async function sendsAfterTheStepWithin(withinMs: number): Promise<boolean> {
  let sent = false;
  const call = { endpoint: "GET /v1/refunds" as const, origin: "live" as const, maxWaitMs: 5_000 };
  const going = withinBudget(budget(500), wallClock, { ...call, untilMs: Date.now() + 120_000 }, async () => {
    sent = true;
    return { kind: "done", id: "ch_2" };
  });
  await vi.advanceTimersByTimeAsync(withinMs);
  const wentInTime = sent;
  await vi.advanceTimersByTimeAsync(70_000);
  await going;
  return wentInTime;
}

afterEach(() => {
  vi.useRealTimers();
  delete process.env.EO_TEST_UNSAFE_TRUST_READ_FROM_THE_FUTURE;
  delete process.env.EO_TEST_UNSAFE_KEEP_FUTURE_SENDS;
});

describe("a clock that steps back", () => {
  it("reads the authority again when its cached read is stamped after now: the primary is passive", async () => {
    // prepare
    const gate = await primaryReadBeforeTheStep();
    // act
    const acting = gate.assertActive();
    // assess
    await expect(acting).rejects.toMatchObject({
      detail: expect.stringMatching(/standby|not active|passive/i),
    });
    expect(await gate.isActive()).toBe(false);
  });

  it("trusting a read from the future (guard off), the primary acts on the view from before the failover", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_TRUST_READ_FROM_THE_FUTURE = "1";
    const gate = await primaryReadBeforeTheStep();
    // act
    const control = await gate.assertActive();
    // assess: epoch 1 says primary, though the authority names the standby under epoch 2
    expect(control).toMatchObject({ active: "primary", epoch: 1 });
  });

  it("forgets PSP sends stamped after now: the next send goes at once, not after the step", async () => {
    // prepare
    await sendsBeforeTheStep();
    // act
    const wentAtOnce = await sendsAfterTheStepWithin(1_100);
    // assess
    expect(wentAtOnce).toBe(true);
  });

  it("keeping sends from the future (guard off), the next send waits out the whole step", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_KEEP_FUTURE_SENDS = "1";
    await sendsBeforeTheStep();
    // act
    const wentAtOnce = await sendsAfterTheStepWithin(1_100);
    // assess
    expect(wentAtOnce).toBe(false);
  });
});
