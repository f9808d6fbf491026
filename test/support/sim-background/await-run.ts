import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface RunResult {
  name: string;
  code: number;
  out: string;
  seconds: number;
}

/** Whether a process (the runner) is still there. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The last progress line of the background runs, for a person watching a long wait. */
function lastLine(dir: string): string {
  const file = join(dir, "plan.log");
  if (!existsSync(file)) return "(no output yet)";
  const lines = readFileSync(file, "utf8").trimEnd().split("\n");
  return lines[lines.length - 1] ?? "";
}

/**
 * Waits for a planned run's report, printing the runs' progress each minute; fails at once if the runner died
 * without writing it (its failure, or the last of its output).
 */
export async function awaitRun(bg: { dir: string; pid: number }, name: string): Promise<RunResult> {
  const file = join(bg.dir, `${name}.json`);
  let said = Date.now();
  while (!existsSync(file)) {
    if (!alive(bg.pid) && !existsSync(file)) {
      const failed = join(bg.dir, "failed.json");
      throw new Error(
        `the background simulation ended without ${name}: ${existsSync(failed) ? readFileSync(failed, "utf8") : lastLine(bg.dir)}`,
      );
    }
    if (Date.now() - said > 60_000) {
      said = Date.now();
      console.info(`waiting for ${name}: ${lastLine(bg.dir)}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return JSON.parse(readFileSync(file, "utf8")) as RunResult;
}
