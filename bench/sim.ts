// npm run bench:sim [-- --runs 40 --emulator-runs 8 --seed 7]
// The simulation's rate against the emulator stack's, measured in the same run on this machine: the same generated
// schedules (one Region, then two with a failover each), the same checker, two processes or stacks side by side. The
// emulator stack plays them in real time on DynamoDB Local, fauxqs and aws-ses-v2-local; the simulation plays them
// in virtual time on the models. Prints schedules a minute for each, the ratio, and the target of 10^6 a day.
import { parseArgs } from "node:util";
import { chaosSettings } from "../scripts/lib/chaos/chaos-settings";
import { longRun } from "../scripts/lib/chaos/long-run";
import { runWorkers } from "../scripts/lib/sim/run-workers";
import { simSettings } from "../scripts/lib/sim/sim-settings";

const TARGET_PER_MINUTE = 1_000_000 / (24 * 60);

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "40" },
    "emulator-runs": { type: "string", default: "8" },
    seed: { type: "string", default: "7" },
  },
});
const quiet = () => undefined;
const rows: Array<{ regions: 1 | 2; emulators: number; sim: number }> = [];
for (const regions of [1, 2] as const) {
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
  console.log(`${regions} Region(s): ${values.runs} schedules on the simulation...`);
  const simArgs = [
    "--runs",
    String(values.runs),
    "--parallel",
    "2",
    "--seed",
    String(values.seed),
    "--regions",
    String(regions),
    "--out",
    "bench-report/sim",
    "--no-shrink",
  ];
  const sim = await runWorkers(simSettings(simArgs), simArgs, quiet);
  console.log(
    `  ${sim.schedulesPerMinute} a minute (${sim.runs} in ${sim.seconds} s, ${sim.violations.length} violations)`,
  );
  rows.push({ regions, emulators: emu.runsPerMinute, sim: sim.schedulesPerMinute });
}
console.log("\nschedules a minute, 2 processes on this machine, measured in this run:");
console.log(
  "  Regions   emulator stack   simulation   ratio   simulation / target (694 a minute = 10^6 a day)",
);
for (const r of rows)
  console.log(
    `  ${String(r.regions).padEnd(9)} ${r.emulators.toFixed(1).padStart(14)} ${r.sim.toFixed(1).padStart(12)} ${(r.sim / Math.max(0.1, r.emulators)).toFixed(1).padStart(6)}x   ${(r.sim / TARGET_PER_MINUTE).toFixed(3)}`,
  );
process.exit(0);
