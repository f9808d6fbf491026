import { describe, expect, it } from "vitest";
import { hashesIn, runSim } from "./support";

describe("the fault checker on the simulation (issue 42)", () => {
  it("plays one- and two-Region schedules on the whole stack in virtual time, with no violation", async () => {
    // act
    const run = await runSim(["--seed", "20261206", "--runs", "40", "--parallel", "2", "--no-shrink"]);
    // assess
    expect(run.code, run.out).toBe(0);
    expect(run.out).toMatch(
      /schedules\s+40 in \d+ s: [\d.]+ a minute \(20 one-Region, 10 two-Region classic, 10 two-Region real-world\)/,
    );
    expect(run.out).toMatch(/violations\s+0/);
    expect(run.out).toMatch(/region_(fail|partition)/);
  }, 600_000);

  it("catches the durable guard taken away, and its one command replays it byte for byte", async () => {
    // act
    const run = await runSim(["--seed", "5", "--runs", "40", "--unsafe", "no-durable-guard", "--no-shrink"]);
    const command = /replay it, byte for byte:\s+npm run sim -- (.*)/.exec(run.out)?.[1] ?? "";
    const again = await runSim(command.split(" "));
    // assess
    expect(run.code, run.out).toBe(1);
    expect(run.out).toMatch(/VIOLATION in schedule \d+: .*one-charge-per-order/);
    expect(again.code, again.out).toBe(1);
    expect(hashesIn(again.out)).toEqual(hashesIn(run.out));
    expect(hashesIn(run.out)).toHaveLength(1);
  }, 600_000);

  it("refuses a bad argument with the usage and exit 2", async () => {
    // act
    const run = await runSim(["--regions", "3"]);
    // assess
    expect(run.code).toBe(2);
    expect(run.out).toMatch(/refused: --regions is 1, 2 or mixed/);
    expect(run.out).toMatch(/usage: npm run sim/);
  });
});
