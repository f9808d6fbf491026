import { test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { scheduleArbitrary } from "../../scripts/lib/chaos/arbitraries";
import { ChaosApi } from "../../scripts/lib/chaos/chaos-api";
import { CHAOS_STACK_OPTIONS, chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import { runOne } from "../../scripts/lib/chaos/run-one";
import { describeSchedule } from "../../scripts/lib/chaos/schedule";
import { useLocalStack } from "../support/local-stack";

Object.assign(process.env, chaosEnv());

/** How many schedules this file plays in `npm test` (the long mode is `npm run chaos`). */
const RUNS = Number(process.env.CHAOS_TEST_RUNS ?? 50);

describe("generated fault schedules: every hop loses an answer or repeats itself", () => {
  const stack = useLocalStack(CHAOS_STACK_OPTIONS);
  test.prop([scheduleArbitrary], { numRuns: RUNS, seed: 20261201, endOnFailure: true })(
    "nothing is charged, credited or notified twice, nothing is lost, no answer contradicts the ledger",
    async (schedule) => {
      // act
      const record = await runOne(new ChaosApi(stack().apiUrl), schedule);
      // assess
      expect(record.violations, describeSchedule(schedule)).toEqual([]);
    },
    RUNS * 30_000,
  );
});
