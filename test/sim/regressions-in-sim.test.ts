import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runSim } from "./support";

// The schedules the long runs found violations with, each played in the simulation as the emulator stack plays them
// in test/chaos/regressions.test.ts and failover-regressions.test.ts.
const kept = readdirSync("test/chaos/regressions")
  .filter((f) => f.endsWith(".json"))
  .map((f) => join("test/chaos/regressions", f));

describe("the kept regressions on the simulation (issue 42)", () => {
  it("plays every kept schedule with no violation, each in a world of its own", async () => {
    // act
    const run = await runSim(kept.flatMap((f) => ["--replay-file", f]));
    // assess
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain(`${kept.length} files played, 0 with a violation`);
  }, 300_000);
});
