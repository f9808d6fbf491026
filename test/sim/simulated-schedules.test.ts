import { describe, expect, it } from "vitest";
import { hashesIn, runSim } from "./support";

// The suite's 10,000 schedules and the guard switches play in the background: test/sim/background/.
describe("the fault checker on the simulation (issue 42)", () => {
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

  it("plays a schedule after one that left a stream read throttled with the history it has alone", async () => {
    // prepare: schedule 22 of seed 882501 throttles the stream reads (stream_read_throttle_ms) and ends with the
    // window open; schedule 142 reads its streams from the start
    const args = ["--seed", "882501", "--regions", "mixed", "--nemesis", "mixed"];
    // act
    const alone = await runSim([...args, "--replay-index", "142"]);
    const after = await runSim([...args, "--replay-index", "22", "--replay-index", "142"]);
    const leaked = await runSim([...args, "--replay-index", "22", "--replay-index", "142"], {
      EO_TEST_UNSAFE_KEEP_READ_THROTTLE: "1",
    });
    // assess: the same history after 22 as alone; with the window kept past the stack's stop, 142 starts throttled
    expect(hashesIn(alone.out)).toHaveLength(1);
    expect(hashesIn(after.out)[1]).toBe(hashesIn(alone.out)[0]);
    expect(hashesIn(leaked.out)).toHaveLength(2);
    expect(hashesIn(leaked.out)[1]).not.toBe(hashesIn(alone.out)[0]);
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
