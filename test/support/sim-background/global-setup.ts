import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

const RUNNER = new URL("./run-plan.ts", import.meta.url).pathname;

declare module "vitest" {
  export interface ProvidedContext {
    /** Where the background runs write their reports, and the runner's process id (its process group). */
    simBackground: { dir: string; pid: number };
  }
}

/**
 * The sim project's global setup: starts the planned simulated runs (plan.ts) when the suite starts, at the lowest
 * CPU priority, so they use the cores the emulator files leave idle, and the files of test/sim/background/ (which run after every
 * other file) only wait for what is left. Answers how to stop them, by the runner's own process group.
 */
export default function startSimBackground(project: TestProject): () => Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "eo-sim-background-"));
  // `chrt`/`nice` exec node, so the child's pid is the runner's and, detached, its process group's.
  const [command, ...prefix] = lowestPriority();
  const args = [...prefix, process.execPath, "--import", "tsx", RUNNER, dir];
  const child = spawn(command, args, {
    detached: true,
    stdio: "ignore",
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
  });
  if (!child.pid) throw new Error(`could not start the background simulation (${command}, node)`);
  child.unref();
  project.provide("simBackground", { dir, pid: child.pid });
  process.stderr.write(
    `sim: the suite's simulated runs play in the background (${command} ${prefix.join(" ")}): ${dir}/plan.log\n`,
  );
  return async () => {
    try {
      process.kill(-(child.pid as number), "SIGTERM");
    } catch {
      // it had ended
    }
  };
}

/**
 * Linux's idle scheduling class (`chrt --idle 0`) where there is one, else nice 19. Measured with a simulation beside
 * two timing-sensitive emulator files (resolver-rechecks, psp-rate-limits): at nice 19 one of them failed (30 taps
 * arrived too slowly to meet the budget) and the other took 33 s instead of 18 to 21; in the idle class both passed
 * (25 s) and the simulation played more (317 a minute against 194), since an idle-class process yields the core at
 * once to any other that wakes.
 */
function lowestPriority(): [string, ...string[]] {
  const chrt = spawnSync("chrt", ["--idle", "0", "true"]);
  return chrt.status === 0 ? ["chrt", "--idle", "0"] : ["nice", "-n", "19"];
}
