import { judgeCharge, observe, Progress, plannedSwitch, resume, runFailover } from "@eo/core/failover";
import { afterEach, describe, expect, it, vi } from "vitest";
import { memorySides } from "./support/memory-sides";

// The failover never says more than it did (issue 40, item 5): its answers in memory, each beside the old one a
// test-only switch brings back. The child-process traces (a verify skipped, a row that disagrees) are in
// failover-script.test.ts.
const quiet = () => new Progress(() => undefined);
const settings = {
  canaryTimeoutMs: 1_000,
  drainFloorMs: 0,
  leaseWaitMs: 0,
  actWindowMs: 0,
  sleep: async () => {},
};
const charge = (refunded: boolean) => ({
  id: "ch_1",
  reference: "pay_1",
  amount: 100,
  currency: "eur",
  status: "succeeded" as const,
  refunded,
  created: 0,
});

afterEach(() => vi.unstubAllEnvs());

describe("a failover whose verify was skipped (the PSP's secrets not at hand)", () => {
  const run = (sides: ReturnType<typeof memorySides>["sides"]) =>
    runFailover(
      quiet(),
      sides,
      { to: "standby", dryRun: false, force: false },
      { ...settings, rounds: 1, verifyHours: 1 },
    );

  it("switches, but is not done: exit 3, NOT verified, named", async () => {
    const out = await run(memorySides().sides);
    expect(out).toMatchObject({ code: 3, mode: "planned", epoch: 2 });
    expect(out.notVerified).toMatch(/verify skipped: the PSP's URL and API key are not at hand/);
  });

  it("unsafe (skipped is done): exit 0, as if every charge had been checked", async () => {
    vi.stubEnv("EO_TEST_UNSAFE_FAILOVER_SKIPPED_VERIFY_IS_DONE", "1");
    const out = await run(memorySides().sides);
    expect(out).toMatchObject({ code: 0, pending: [] });
    expect(out.notVerified).toBeUndefined();
  });
});

describe("a fence whose reply was lost", () => {
  it("is read back: the authority names the target with our epoch and active_from, so the switch is done", async () => {
    // prepare: the write lands, its reply is lost, the SDK's retry fails its own condition
    const { sides } = memorySides({ replyLost: true });
    // act
    const switched = await plannedSwitch(quiet(), sides, await observe(sides), "primary", {}, settings);
    // assess
    expect(switched?.control).toMatchObject({ active: "standby", epoch: 2 });
    expect(await sides.authority.read()).toEqual(switched?.control);
  });

  it("unsafe (no read-back): reported 'nothing was changed' although the authority names the target", async () => {
    vi.stubEnv("EO_TEST_UNSAFE_FAILOVER_FENCE_NO_READ_BACK", "1");
    const { sides } = memorySides({ replyLost: true });
    const p = quiet();
    const switched = await plannedSwitch(p, sides, await observe(sides), "primary", {}, settings);
    expect(switched).toBeUndefined();
    expect(p.steps.at(-1)?.detail).toMatch(/nothing was changed/);
    expect(await sides.authority.read()).toMatchObject({ active: "standby", epoch: 2 });
  });
});

describe("resume in a target whose jobs answered passive", () => {
  it("fails, naming the passive jobs", async () => {
    const { sides } = memorySides({ job: { passive: true } });
    const p = quiet();
    const pending = await resume(p, sides.standby, { rounds: 2, verifyHours: 1 });
    expect(pending).toMatch(/standby's resolver and sweeps answered passive: .*nothing was resumed there/);
    expect(p.steps[0]).toMatchObject({ ok: false, detail: expect.stringMatching(/NOT resumed/) });
  });

  it("unsafe (passive ignored): counted as resumed, 'nothing unknown'", async () => {
    vi.stubEnv("EO_TEST_UNSAFE_FAILOVER_RESUME_IGNORES_PASSIVE", "1");
    const { sides } = memorySides({ job: { passive: true } });
    const p = quiet();
    expect(await resume(p, sides.standby, { rounds: 2, verifyHours: 1 })).toBeUndefined();
    expect(p.steps[0]).toMatchObject({ ok: true, detail: expect.stringMatching(/nothing unknown/) });
  });
});

describe("verify judges a charge by its row's state, refund and amount, not its presence", () => {
  const row = (state: string, amount = 100) => ({ state, amount, currency: "EUR" });
  it("a charge agrees with a charged row; a refunded one only with REFUNDED", () => {
    for (const s of ["SUCCEEDED", "REFUND_PENDING", "REFUND_UNKNOWN", "REFUND_FAILED"])
      expect(judgeCharge(charge(false), row(s))).toBeUndefined();
    expect(judgeCharge(charge(true), row("REFUNDED"))).toBeUndefined();
  });

  it("names a missing row, a refund the row lost or invents, an open or failed row, another amount", () => {
    expect(judgeCharge(charge(false), undefined)).toBe("no row");
    expect(judgeCharge(charge(true), row("SUCCEEDED"))).toBe("row SUCCEEDED, the PSP refunded the charge");
    expect(judgeCharge(charge(false), row("REFUNDED"))).toMatch(/row REFUNDED, the PSP did not refund/);
    expect(judgeCharge(charge(false), row("PENDING"))).toBe("row PENDING, the PSP charged");
    expect(judgeCharge(charge(false), row("FAILED"))).toBe("row FAILED, the PSP charged");
    expect(judgeCharge(charge(false), row("SUCCEEDED", 90))).toBe("row 90, the PSP charged 100");
  });
});
