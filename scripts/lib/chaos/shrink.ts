import fc from "fast-check";
import {
  scheduleArbitrary,
  stalledReplicationScheduleArbitrary,
  twoRegionScheduleArbitrary,
} from "./arbitraries";
import type { ChaosApi } from "./chaos-api";
import type { RunRecord } from "./history";
import { drawsRealWorld, realWorldShrinkable } from "./real-world-arbitraries";
import { runOne } from "./run-one";
import { type ClientSwitches, needsTwoRegions, type Schedule } from "./schedule";

const SHRINK_WITHIN_MS = 10 * 60_000;

/**
 * Shrinks a violating schedule with fast-check's own shrinker (the schedule is given as an example, which
 * fast-check shrinks like a generated value): the smallest schedule that still breaks one of the same checks.
 */
export async function shrinkViolation(
  api: ChaosApi,
  failing: RunRecord,
  client: ClientSwitches,
  log: (l: string) => void,
): Promise<RunRecord> {
  const smallest = await shrinkWith(
    (schedule) => runOne(api, schedule, client, failing.switches.server),
    failing,
    log,
  );
  return { ...smallest, seed: failing.seed, path: failing.path };
}

/** Shrinks a violating schedule, each candidate played by `play` (a stack of the emulators, or a simulated world). */
export async function shrinkWith(
  play: (schedule: Schedule) => Promise<RunRecord>,
  failing: RunRecord,
  log: (l: string) => void,
  withinMs = SHRINK_WITHIN_MS,
): Promise<RunRecord> {
  const checks = new Set(failing.violations.map((v) => v.check));
  let smallest = failing;
  let tries = 0;
  const stalls = failing.schedule.steps.some((st) => st.op === "replication_stall");
  const twoRegions = drawsRealWorld(failing.schedule)
    ? realWorldShrinkable()
    : stalls
      ? stalledReplicationScheduleArbitrary
      : twoRegionScheduleArbitrary;
  const arbitrary = needsTwoRegions(failing.schedule) ? twoRegions : scheduleArbitrary;
  const property = fc.asyncProperty(arbitrary, async (schedule: Schedule) => {
    tries += 1;
    const record = await play(schedule);
    const still = record.violations.some((v) => checks.has(v.check));
    if (still && schedule.steps.length <= smallest.schedule.steps.length) smallest = record;
    if (tries % 5 === 0)
      log(`  shrinking: ${tries} tries, smallest so far ${smallest.schedule.steps.length} steps`);
    return !still;
  });
  await fc.check(property, { examples: [[failing.schedule]], numRuns: 1, interruptAfterTimeLimit: withinMs });
  return smallest;
}
