import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runSim } from "./support";

// The schedules the long runs found violations with, each played in the simulation as the emulator stack plays them
// in test/chaos/regressions.test.ts and failover-regressions.test.ts.
const kept = readdirSync("test/chaos/regressions")
  .filter((f) => f.endsWith(".json"))
  .map((f) => join("test/chaos/regressions", f));

// The kept files that name the guard whose removal brings their failure back (`guard`, a name of `--unsafe`); the
// others' fixes were in the runner or the checker, have no switch of their own, or need timing the simulation's
// worlds do not give them (docs/fault-checker.md, "The simulation").
const guarded = kept
  .map((path) => ({ path, guard: (JSON.parse(readFileSync(path, "utf8")) as { guard?: string }).guard }))
  .filter((k): k is { path: string; guard: string } => k.guard !== undefined);

/** How many kept files name a guard: a file that loses its `guard` must not drop out of the test below unseen. */
const GUARDED = 4;

describe("the kept regressions on the simulation (issue 42)", () => {
  it("plays every kept schedule with no violation, each in a world of its own", async () => {
    // act
    const run = await runSim(kept.flatMap((f) => ["--replay-file", f]));
    // assess
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain(`${kept.length} files played, 0 with a violation`);
  }, 300_000);

  it("catches every kept schedule that names a guard with that guard taken away, each in a world of its own", async () => {
    // act: one process, each file's switch set for its own world alone
    const run = await runSim([...guarded.flatMap((k) => ["--replay-file", k.path]), "--unsafe-own-guard"]);
    // assess
    expect(guarded).toHaveLength(GUARDED);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain(`${GUARDED} files played with their guards removed, ${GUARDED} caught`);
    for (const k of guarded) expect(run.out).toContain(`caught      ${k.path} without ${k.guard}: `);
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
