import { test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { scheduleArbitrary } from "../../../scripts/lib/chaos/arbitraries";
import { ChaosApi } from "../../../scripts/lib/chaos/chaos-api";
import { CHAOS_STACK_OPTIONS, chaosEnv } from "../../../scripts/lib/chaos/chaos-stack";
import { runOne } from "../../../scripts/lib/chaos/run-one";
import { describeSchedule } from "../../../scripts/lib/chaos/schedule";
import { useLocalStack } from "../../support/local-stack";

/**
 * One file's share of the schedules `npm test` plays: its own stack, its own seed, so that two files run side by
 * side (the long mode is `npm run chaos`). A failure prints the shrunk schedule and its seed and path.
 */
export function chaosSchedules(seed: number, runs: number): void {
  Object.assign(process.env, chaosEnv());
  describe("generated fault schedules: every hop loses an answer or repeats itself", () => {
    const stack = useLocalStack(CHAOS_STACK_OPTIONS);
    test.prop([scheduleArbitrary], { numRuns: runs, seed })(
      `nothing is charged, credited or notified twice, nothing is lost, no answer contradicts the ledger (${runs} schedules)`,
      async (schedule) => {
        // act
        const record = await runOne(new ChaosApi(stack().apiUrl), schedule);
        // assess
        expect(record.violations, describeSchedule(schedule)).toEqual([]);
      },
      runs * 30_000,
    );
  });
}
