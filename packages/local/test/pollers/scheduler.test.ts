import { manualClock } from "@eo/core";
import { afterEach, describe, expect, it } from "vitest";
import { type Scheduler, startScheduler, UnknownJobError } from "../../src/pollers/scheduler";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("startScheduler", () => {
  let scheduler: Scheduler | undefined;
  afterEach(async () => {
    await scheduler?.stop();
    scheduler = undefined;
  });

  it("runs a job on its interval, and stop clears it", async () => {
    // prepare
    let runs = 0;
    scheduler = startScheduler({ tick: { everyMs: 40, run: async () => ++runs } });

    // act
    await pause(230);
    await scheduler.stop();
    const atStop = runs;
    await pause(150);

    // assess
    expect(atStop).toBeGreaterThanOrEqual(2);
    expect(atStop).toBeLessThanOrEqual(6);
    expect(runs).toBe(atStop);
  });

  it("runNow returns what the job returned, lists the names, and rejects an unknown name", async () => {
    // prepare
    scheduler = startScheduler({
      sweep: { everyMs: 60_000, run: async () => ({ swept: 3 }) },
      report: { everyMs: 60_000, run: async () => "done" },
    });

    // act
    const result = await scheduler.runNow("sweep");

    // assess
    expect(result).toEqual({ swept: 3 });
    expect(scheduler.names()).toEqual(["sweep", "report"]);
    await expect(scheduler.runNow("nope")).rejects.toBeInstanceOf(UnknownJobError);
  });

  /** A job that takes 120 ms and counts how many of its runs are under way at once. */
  function slowJob() {
    const seen = { running: 0, maxRunning: 0, runs: 0 };
    const run = async () => {
      seen.running++;
      seen.maxRunning = Math.max(seen.maxRunning, seen.running);
      await pause(120);
      seen.running--;
      return ++seen.runs;
    };
    return { seen, run };
  }

  it("overlaps a job with itself by default, as EventBridge can: ticks and runNow start beside a run", async () => {
    // prepare
    const { seen, run } = slowJob();
    scheduler = startScheduler({ slow: { everyMs: 20, run } });

    // act
    while (seen.running === 0) await pause(5);
    const both = await Promise.all([scheduler.runNow("slow"), scheduler.runNow("slow")]);
    await scheduler.stop();

    // assess
    expect(seen.maxRunning).toBeGreaterThanOrEqual(3);
    expect(both[0]).not.toBe(both[1]);
    expect(seen.running).toBe(0);
  });

  it("with noOverlap never overlaps a job with itself: ticks during a run are skipped, runNow waits", async () => {
    // prepare
    const { seen, run } = slowJob();
    scheduler = startScheduler({ slow: { everyMs: 20, run } }, { noOverlap: true });

    // act
    while (seen.running === 0) await pause(5);
    const now = await scheduler.runNow("slow");
    await scheduler.stop();

    // assess
    expect(seen.maxRunning).toBe(1);
    expect(now).toBe(seen.runs);
    expect(seen.runs).toBe(2);
  });

  it("runs a job when its clock is moved past the next due time", async () => {
    // prepare
    const clock = manualClock(1_000_000);
    let runs = 0;
    scheduler = startScheduler({ hourly: { everyMs: 3_600_000, run: async () => ++runs } }, { clock });
    await pause(50);
    const before = runs;

    // act
    clock.advance(3_600_000);
    await pause(1_100);

    // assess
    expect(before).toBe(0);
    expect(runs).toBe(1);
  });

  it("keeps scheduling after a run fails", async () => {
    // prepare
    let runs = 0;
    const flaky = async () => {
      runs++;
      throw new Error("boom");
    };
    scheduler = startScheduler({ flaky: { everyMs: 30, run: flaky } });

    // act
    await pause(140);

    // assess
    expect(runs).toBeGreaterThanOrEqual(2);
    await expect(scheduler.runNow("flaky")).rejects.toThrow("boom");
  });

  it("never retries a failed run: the next run is the next one due, as in AWS with Lambda's retries off", async () => {
    // prepare
    const clock = manualClock(1_000_000);
    let runs = 0;
    const failing = async () => {
      runs++;
      throw new Error("boom");
    };
    scheduler = startScheduler({ resolver: { everyMs: 60_000, run: failing } }, { clock });

    // act
    clock.advance(60_000);
    await pause(1_100);
    const afterFailure = runs;
    // Lambda's first retry would come a minute after; the schedule's clock stays before the next pass.
    clock.advance(59_000);
    await pause(1_100);

    // assess
    expect(afterFailure).toBe(1);
    expect(runs).toBe(1);
  });
});
