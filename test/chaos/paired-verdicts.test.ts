import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { ChaosApi } from "../../scripts/lib/chaos/chaos-api";
import { CHAOS_TWO_REGION_OPTIONS, chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import { realWorldScheduleArbitrary } from "../../scripts/lib/chaos/real-world-arbitraries";
import { runOne } from "../../scripts/lib/chaos/run-one";
import { describeSchedule, type Schedule } from "../../scripts/lib/chaos/schedule";
import { runSim } from "../sim/support";
import { useLocalStack } from "../support/local-stack";

Object.assign(process.env, chaosEnv());

// One sample, two stacks (issue 42, item 2): the emulator stack plays each schedule in real time, the simulation
// plays the same schedule on its models in virtual time, and the same checker judges both.
const SEED = 20261207;
const SAMPLE = fc.sample(realWorldScheduleArbitrary, { seed: SEED, numRuns: 3 });

// The durable guard's trace (Part 4): a retry after the key window has expired. Without the locator item it charges
// again; with it, it answers the payment.
const RETRY_AFTER_THE_KEY_WINDOW: Schedule = {
  orders: [{ caller: 0, merchant: 0, amount: 4_200, declined: false }],
  steps: [
    { op: "pay", order: 0, fault: { kind: "none" } },
    { op: "later", seconds: 3_700 },
    { op: "pay", order: 0, fault: { kind: "none" } },
  ],
};

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_NO_DURABLE_GUARD;
});

/** Writes schedules as the files `npm run sim -- --replay-file` plays, each in the world its index names. */
function scheduleFiles(schedules: Schedule[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), "paired-"));
  return schedules.map((schedule, i) => {
    const file = join(dir, `paired-${i}.json`);
    writeFileSync(file, JSON.stringify({ seed: SEED, path: String(i), schedule }));
    return file;
  });
}

/** The checks each file's replay violated, in the order played, from `npm run sim`'s output. */
function simVerdicts(out: string): string[][] {
  return out
    .split(/\nreplaying schedule /)
    .slice(1)
    .map((part) =>
      [...new Set([...part.matchAll(/VIOLATION ([a-z-]+):/g)].map((m) => m[1] as string))].sort(),
    );
}

/** Plays schedules on the emulator stack; answers each one's violated checks. */
async function emulatorVerdicts(apiUrl: string, schedules: Schedule[]): Promise<string[][]> {
  const verdicts: string[][] = [];
  for (const schedule of schedules) {
    const record = await runOne(new ChaosApi(apiUrl), schedule);
    verdicts.push([...new Set(record.violations.map((v) => v.check))].sort());
  }
  return verdicts;
}

describe("one sample on two stacks: the emulators and the simulation judge it alike", () => {
  const stack = useLocalStack(CHAOS_TWO_REGION_OPTIONS);

  it("catches the durable guard taken away on both, with the same check", async () => {
    // prepare: the primary's handlers run in this process and read the switch. First in the file: the real-world
    // schedules fail over, and the standby's handlers (a worker thread of their own) would not read it.
    process.env.EO_TEST_UNSAFE_NO_DURABLE_GUARD = "1";
    // act
    const onEmulators = await emulatorVerdicts(stack().apiUrl, [RETRY_AFTER_THE_KEY_WINDOW]);
    const inSim = await runSim([
      ...["--unsafe", "no-durable-guard"],
      ...scheduleFiles([RETRY_AFTER_THE_KEY_WINDOW]).flatMap((f) => ["--replay-file", f]),
    ]);
    // assess
    expect(inSim.code, inSim.out).toBe(1);
    expect(simVerdicts(inSim.out)).toEqual(onEmulators);
    expect(onEmulators[0]).toContain("one-charge-per-order");
  }, 300_000);

  it("gives each of 3 real-world two-Region schedules the same verdict on both", async () => {
    // act
    const onEmulators = await emulatorVerdicts(stack().apiUrl, SAMPLE);
    const inSim = await runSim(scheduleFiles(SAMPLE).flatMap((f) => ["--replay-file", f]));
    // assess
    expect(simVerdicts(inSim.out), SAMPLE.map(describeSchedule).join("\n")).toEqual(onEmulators);
    expect(onEmulators).toEqual([[], [], []]);
  }, 300_000);
});
