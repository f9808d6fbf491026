import fc from "fast-check";
import { scheduleArbitrary, twoRegionScheduleArbitrary } from "../chaos/arbitraries";
import type { RunRecord } from "../chaos/history";
import { type ClientSwitches, needsTwoRegions, type Schedule } from "../chaos/schedule";
import { playInWorld, type SimSchedule } from "./play-in-world";

/** fast-check reads this on the real clock: it checks the limit between candidates, outside their worlds. */
const SHRINK_WITHIN_MS = 5 * 60_000;

/**
 * Shrinks a violating schedule with fast-check's shrinker, each candidate played in the violation's own world (its
 * seed and index), so the smallest schedule found replays as exactly as the original.
 */
export async function shrinkInWorld(
  at: SimSchedule,
  failing: RunRecord,
  client: ClientSwitches,
  log: (l: string) => void,
): Promise<RunRecord> {
  const checks = new Set(failing.violations.map((v) => v.check));
  let smallest = failing;
  let tries = 0;
  const arbitrary = needsTwoRegions(failing.schedule) ? twoRegionScheduleArbitrary : scheduleArbitrary;
  const property = fc.asyncProperty(arbitrary, async (schedule: Schedule) => {
    tries += 1;
    const { record } = await playInWorld(at, schedule, client);
    const still = record.violations.some((v) => checks.has(v.check));
    if (still && schedule.steps.length <= smallest.schedule.steps.length) smallest = record;
    if (tries % 10 === 0)
      log(`  shrinking: ${tries} tries, smallest so far ${smallest.schedule.steps.length} steps`);
    return !still;
  });
  await fc.check(property, {
    examples: [[failing.schedule]],
    numRuns: 1,
    interruptAfterTimeLimit: SHRINK_WITHIN_MS,
  });
  return smallest;
}
