import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import type { SimSummary } from "../../../scripts/lib/sim/sim-report";
import { awaitRun } from "../../support/sim-background/await-run";
import { SUITE_SCHEDULES, SUITE_SEED } from "../../support/sim-background/plan";

// Played in the background while the emulator files ran (test/support/sim-background/); this file judges its report.
describe(`the fault checker on the simulation: ${SUITE_SCHEDULES} schedules of seed ${SUITE_SEED} (issue 42)`, () => {
  it("plays one- and two-Region schedules on the whole stack in virtual time, with no violation", async () => {
    // act
    const bg = inject("simBackground");
    const run = await awaitRun(bg, "suite-schedules");
    const summary = JSON.parse(
      readFileSync(join(bg.dir, "suite-schedules", "summary.json"), "utf8"),
    ) as SimSummary;
    console.info(
      run.out.slice(run.out.lastIndexOf("\nsummary") >= 0 ? run.out.lastIndexOf("\nsummary") : -2_000),
    );
    // assess: every schedule played, each kind in its share, nothing violated
    expect(run.code, run.out.slice(-3_000)).toBe(0);
    expect(summary.runs).toBe(SUITE_SCHEDULES);
    expect(summary.violations).toEqual([]);
    expect(Object.values(summary.byKind).sort((a, b) => a - b)).toEqual([
      SUITE_SCHEDULES / 4,
      SUITE_SCHEDULES / 4,
      SUITE_SCHEDULES / 2,
    ]);
    // assess: what the real world adds fired, not only the classic nemesis
    for (const kind of FAULTS_EXPECTED) expect(summary.faultsFired[kind] ?? 0, kind).toBeGreaterThan(0);
  }, 1_800_000);
});

/**
 * The classic nemesis's Region faults and what the real world adds (the operator reaching a cut Region, a lagging PSP
 * lookup after a failover, a refund in flight under stalled replication, a stream read throttled), as the summary
 * counts them.
 */
const FAULTS_EXPECTED = [
  ...["region_fail", "region_partition", "region_partition_operator_reaches", "psp_lose_reply"],
  ...["psp_index_lag_ms", "replication_stall", "stall_after_psp_ms", "stream_read_throttle_ms"],
];
