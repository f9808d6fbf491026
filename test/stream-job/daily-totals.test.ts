import { afterEach, describe, expect, it } from "vitest";
import { useLocalStack } from "../support/local-stack";
import { eventually } from "../support/tables";
import { totalsTrace } from "./support/totals";

const stack = useLocalStack();
const SWITCHES = [
  "EO_TEST_UNSAFE_STREAM_JOB_V1",
  "EO_TEST_UNSAFE_NO_FULL_FLUSH",
  "EO_TEST_UNSAFE_DEDUP_OUTSIDE_STATE",
  "EO_TEST_UNSAFE_NO_WATERMARK_FLOOR",
];
afterEach(() => {
  for (const s of SWITCHES) delete process.env[s];
});

/** Prepares P5's start: m1's total at 12,000, committed by the job. */
async function m1At12000(name: string) {
  const t = totalsTrace(stack(), name);
  await t.pay("m1", 12_000);
  expect(await t.until("m1", 12_000)).toBe(12_000);
  await t.settled();
  return t;
}

/** The job's v1 counts a declined payment of m2 (500) and crashes after its sink write; the restore runs v2. */
async function v1CrashesOnADecline(t: Awaited<ReturnType<typeof m1At12000>>) {
  process.env.EO_TEST_UNSAFE_STREAM_JOB_V1 = "until-crash";
  await t.api.local("POST", "/faults", { stream_job_crash_after_sink: 1 });
  await t.pay("m2", 500, true);
  // The retry runs once the crash is taken; then ev_7 (m1 3,000) is replayed input for the restored job.
  await crashTaken(t);
  await t.pay("m1", 3_000);
  await t.until("m1", 15_000);
}

/** Waits until the armed `stream_job_crash_after_sink` has been taken by a batch (or fails after 10 s). */
async function crashTaken(t: ReturnType<typeof totalsTrace>) {
  const armed = async () =>
    Boolean((await t.api.local<Record<string, number>>("GET", "/faults")).stream_job_crash_after_sink);
  await eventually(async () => ((await armed()) ? undefined : true), 10_000, "the armed crash to be taken");
}

describe("the stream job restores (Part 8, P5)", () => {
  it("counts a succeeded payment once in its merchant's day; a declined one contributes nothing", async () => {
    // prepare
    const t = totalsTrace(stack(), "once");
    // act
    await t.pay("m1", 4_200);
    await t.pay("m2", 500, true);
    // assess
    expect(await t.until("m1", 4_200)).toBe(4_200);
    const [day] = await t.totals("m1");
    expect(day?.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(day?.tag).toBeGreaterThan(0);
    expect(await t.totals("m2")).toEqual([]);
  }, 60_000);

  it("after the restore the sink matches restored state plus replay: m1 = 15,000 and m2's wrong total is gone", async () => {
    // prepare
    const t = await m1At12000("p5");
    // act
    await v1CrashesOnADecline(t);
    // assess
    expect(await t.sum("m1")).toBe(15_000);
    expect(await t.totals("m2")).toEqual([]);
  }, 60_000);

  it("branch S: without the full flush, v1's m2 = 500 stays in the sink for ever", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_FULL_FLUSH = "1";
    const t = await m1At12000("branch-s");
    // act
    await v1CrashesOnADecline(t);
    // assess
    expect(await t.sum("m1")).toBe(15_000);
    expect(await t.sum("m2")).toBe(500);
  }, 60_000);
});

describe("dedup state in the checkpoint, not outside", () => {
  it("the replay of ev_7 after a crash after the sink is counted once: m1 = 15,000", async () => {
    // prepare
    const t = await m1At12000("dedup");
    await t.api.local("POST", "/faults", { stream_job_crash_after_sink: 1 });
    // act
    await t.pay("m1", 3_000);
    await crashTaken(t);
    await t.settled();
    // assess
    expect(await t.until("m1", 15_000)).toBe(15_000);
  }, 60_000);

  it("counterfactual: with the seen ids in an outside cache, the replay of ev_7 is dropped and m1 is under-billed by 3,000", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_DEDUP_OUTSIDE_STATE = "1";
    const t = await m1At12000("outside");
    await t.api.local("POST", "/faults", { stream_job_crash_after_sink: 1 });
    // act: ev_7, then, once the crash is taken and the restore has run, a later 100 that shows the job has gone past
    // ev_7's replay (paid at once, it could share ev_7's batch and be dropped with it)
    await t.pay("m1", 3_000);
    await crashTaken(t);
    await t.settled();
    await t.pay("m1", 100);
    // assess: the crashed run wrote 15,000, the restore's flush rewrote 12,000 and the replay was dropped
    expect(await t.until("m1", 12_100)).toBe(12_100);
  }, 60_000);
});

describe("the acceptance horizon and the watermark floor", () => {
  /** ev_a at T, then ev_b at T + 7,300 s: ev_a's timer (T + 7,200) has fired; then the source re-reads. */
  async function staleCopyOfEvA(name: string) {
    const t = totalsTrace(stack(), name);
    await t.pay("m1", 1_000);
    await t.until("m1", 1_000);
    await t.api.local("POST", "/clock", { advance_s: 7_300 });
    await t.pay("m1", 2_000);
    await t.until("m1", 3_000);
    await t.api.local("POST", "/faults", { stream_job_redeliver: 100, n: 1 });
    await t.pay("m1", 500);
    return t;
  }

  it("a copy of ev_a re-delivered after its id expired is rejected as late by the saved floor: m1 = 3,500", async () => {
    // act
    const t = await staleCopyOfEvA("floor");
    // assess
    expect(await t.until("m1", 3_500)).toBe(3_500);
  }, 60_000);

  it("counterfactual: judged by the live watermark alone, the copy looks on time and ev_a is counted twice", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_WATERMARK_FLOOR = "1";
    // act
    const t = await staleCopyOfEvA("no-floor");
    // assess
    expect(await t.until("m1", 4_500)).toBe(4_500);
  }, 60_000);
});
