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

  it("catches the refund lost across two failovers again with the refund marks taken away (no-refund-mark)", async () => {
    // act
    const run = await runSim([
      ...["--unsafe", "no-refund-mark"],
      ...["--replay-file", "test/chaos/regressions/refund-in-flight-lost-across-two-failovers.json"],
    ]);
    // assess: the buyer was told 202, and the refund is never sent
    expect(run.code, run.out).toBe(1);
    expect(run.out).toMatch(/VIOLATION nothing-unknown: .* ends REFUND_PENDING/);
  }, 300_000);
});
