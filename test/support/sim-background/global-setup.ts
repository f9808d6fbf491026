import { spawn } from "node:child_process";
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
 * The sim project's global setup: starts the planned simulated runs (plan.ts) when the suite starts, at nice 19, so
 * they use the cores the emulator files leave idle, and the files of test/sim/background/ (which run after every
 * other file) only wait for what is left. Answers how to stop them, by the runner's own process group.
 */
export default function startSimBackground(project: TestProject): () => Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "eo-sim-background-"));
  // `nice` execs node, so the child's pid is the runner's and, detached, its process group's.
  const child = spawn("nice", ["-n", "19", process.execPath, "--import", "tsx", RUNNER, dir], {
    detached: true,
    stdio: "ignore",
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
  });
  if (!child.pid) throw new Error("could not start the background simulation (nice, node)");
  child.unref();
  project.provide("simBackground", { dir, pid: child.pid });
  process.stderr.write(
    `sim: the suite's simulated runs play in the background, at nice 19: ${dir}/plan.log\n`,
  );
  return async () => {
    try {
      process.kill(-(child.pid as number), "SIGTERM");
    } catch {
      // it had ended
    }
  };
}
