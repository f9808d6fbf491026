// npm run bench:sim [-- --sim-minutes 2 --emulator-runs 8 --seed 7]
// The simulation's rate against the emulator stack's, measured in the same run on this machine: the same generated
// schedules (one Region, then two with a failover each), the same checker, two processes or stacks side by side. The
// emulator stack plays them in real time on DynamoDB Local, fauxqs and aws-ses-v2-local; the simulation plays them
// in virtual time on the models, for two minutes each (a rate, not a start-up: each worker loads its modules once), and
// then the mix `npm run sim` plays by default. Prints schedules a minute, the ratio, and the target of 10^6 a day.
// The simulation's rate against the target is its steady rate, after the first 30 s of each run: a day's run pays a
// process's start (module loading, the warm-up schedule, V8 compiling the hot code) once; two minutes pay it in
// full, and the whole run's rate is printed beside it.
import { parseArgs } from "node:util";
import { chaosSettings } from "../scripts/lib/chaos/chaos-settings";
import { longRun } from "../scripts/lib/chaos/long-run";
import { runWorkers } from "../scripts/lib/sim/run-workers";
import { simSettings } from "../scripts/lib/sim/sim-settings";

const TARGET_PER_MINUTE = 1_000_000 / (24 * 60);

const { values } = parseArgs({
  options: {
    "sim-minutes": { type: "string", default: "2" },
    "emulator-runs": { type: "string", default: "8" },
    seed: { type: "string", default: "7" },
  },
});
const quiet = () => undefined;
const rows: Array<{ regions: string; emulators: number; sim: number; whole: number }> = [];
for (const regions of [1, 2, "mixed"] as const) {
  if (regions === "mixed") {
    rows.push({ regions, emulators: mixOf(rows), ...(await simRate(regions)) });
    continue;
  }
  console.log(`\n${regions} Region(s): ${values["emulator-runs"]} schedules on the emulator stack...`);
  const emu = await longRun(
    chaosSettings([
      "--runs",
      String(values["emulator-runs"]),
      "--parallel",
      "2",
      "--seed",
      String(values.seed),
      "--regions",
      String(regions),
      "--out",
      "bench-report/emulators",
    ]),
    quiet,
  );
  console.log(
    `  ${emu.runsPerMinute} a minute (${emu.runs} in ${emu.seconds} s, ${emu.violations.length} violations)`,
  );
  rows.push({ regions: String(regions), emulators: emu.runsPerMinute, ...(await simRate(regions)) });
}
console.log("\nschedules a minute, 2 processes on this machine, measured in this run:");
console.log(
  "  Regions   emulator stack   simulation (steady)   ratio   simulation / target (694 a minute = 10^6 a day)   whole run, start included",
);
for (const r of rows)
  console.log(
    `  ${r.regions.padEnd(9)} ${r.emulators.toFixed(1).padStart(14)} ${r.sim.toFixed(1).padStart(21)} ${(r.sim / Math.max(0.1, r.emulators)).toFixed(1).padStart(6)}x   ${(r.sim / TARGET_PER_MINUTE).toFixed(3).padStart(5)}${" ".repeat(45)}${r.whole.toFixed(1).padStart(8)}`,
  );
console.log(
  "  (mixed: half one-Region, half two-Region, a half of those with the real world's faults; the emulator stack's\n" +
    "   figure for it is computed from its two rows, as the real-world nemesis adds no real time of its own)",
);
process.exit(0);

/**
 * The simulation's rates over `--sim-minutes` on two processes, for one kind of schedule or the default mix: steady
 * (after the run's first 30 s) and over the whole time, their start included.
 */
async function simRate(regions: 1 | 2 | "mixed"): Promise<{ sim: number; whole: number }> {
  console.log(`${regions} Region(s): the simulation for ${values["sim-minutes"]} minute(s)...`);
  const simArgs = [
    ...["--for", String(values["sim-minutes"]), "--parallel", "2", "--seed", String(values.seed)],
    ...["--regions", String(regions), "--out", "bench-report/sim", "--no-shrink"],
  ];
  const sim = await runWorkers(simSettings(simArgs), simArgs, quiet);
  const steady = sim.steady?.perMinute ?? sim.schedulesPerMinute;
  console.log(
    `  ${steady} a minute steady, ${sim.schedulesPerMinute} over the whole time (${sim.runs} in ${sim.seconds} s, the first ${sim.steady?.afterSeconds ?? "?"} s not in the steady rate; ${sim.violations.length} violations)`,
  );
  return { sim: steady, whole: sim.schedulesPerMinute };
}

/** The rate of half one-Region and half two-Region schedules, from the rates of each (time per schedule averaged). */
function mixOf(measured: Array<{ emulators: number }>): number {
  const [one, two] = measured.map((r) => Math.max(0.1, r.emulators));
  return Number((1 / (0.5 / (one ?? 0.1) + 0.5 / (two ?? 0.1))).toFixed(1));
}
