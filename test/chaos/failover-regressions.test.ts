import { describe, expect, it } from "vitest";
import { ChaosApi } from "../../scripts/lib/chaos/chaos-api";
import { CHAOS_TWO_REGION_OPTIONS, chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import { runOne } from "../../scripts/lib/chaos/run-one";
import { useLocalStack } from "../support/local-stack";
import { keptRegressions } from "./support/regressions";

Object.assign(process.env, chaosEnv());

// The two-Region schedules the long runs found violations with, each replayed as it was kept
// (`test/chaos/regressions/*.json` with two Regions, each with why it was kept).
describe("two-Region schedules kept from the long runs", () => {
  const stack = useLocalStack(CHAOS_TWO_REGION_OPTIONS);

  for (const kept of keptRegressions(2))
    it(`kept from a long run: ${kept.name}`, async () => {
      // act
      const record = await runOne(new ChaosApi(stack().apiUrl), kept.schedule);
      // assess
      expect(record.violations, kept.why).toEqual([]);
    }, 60_000);
});
