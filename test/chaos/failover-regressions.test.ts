import { describe, expect, it } from "vitest";
import { ChaosApi } from "../../scripts/lib/chaos/chaos-api";
import { CHAOS_TWO_REGION_OPTIONS, chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import { runOne } from "../../scripts/lib/chaos/run-one";
import { useLocalStack } from "../support/local-stack";
import { keptRegressions } from "./support/regressions";

Object.assign(process.env, chaosEnv());

/**
 * The two-Region schedules the emulators replay in `npm test`: one per mechanism the simulation models rather than
 * runs (SQS's redrive and a partition, the FIFO dedup window across queues, the sparse index and the PSP's edge, the
 * epoch stamps, the stack's clock read over HTTP, whole items replicated last writer wins). Every kept schedule is
 * replayed in the simulation (test/sim/regressions-in-sim.test.ts); `EO_KEPT_ON_EMULATORS=all` replays all of them
 * here too, about 11 s each.
 */
const EMULATOR_SMOKE = [
  "event-refused-in-a-partition-left-in-the-dlq",
  "hand-over-dropped-as-a-duplicate",
  "refund-in-flight-lost-across-two-failovers",
  "void-lost-with-its-region",
  "lagging-lookup-after-a-clock-move-and-failover",
  "alerts-over-bound-after-failover",
];

const played = keptRegressions(2).filter(
  (k) => process.env.EO_KEPT_ON_EMULATORS === "all" || EMULATOR_SMOKE.includes(k.name),
);

// The two-Region schedules the long runs found violations with, each replayed as it was kept
// (`test/chaos/regressions/*.json` with two Regions, each with why it was kept).
describe("two-Region schedules kept from the long runs", () => {
  const stack = useLocalStack(CHAOS_TWO_REGION_OPTIONS);

  it("replays a smoke sample of one kept schedule per mechanism, each of them still kept", () => {
    // assess: a renamed or dropped file must not shrink the sample unseen
    expect(played.map((k) => k.name).sort()).toEqual(expect.arrayContaining([...EMULATOR_SMOKE].sort()));
  });

  for (const kept of played)
    it(`kept from a long run: ${kept.name}`, async () => {
      // act
      const record = await runOne(new ChaosApi(stack().apiUrl), kept.schedule);
      // assess
      expect(record.violations, kept.why).toEqual([]);
    }, 60_000);
});
