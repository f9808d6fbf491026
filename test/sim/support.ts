import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Runs `npm run sim` as a person would (its own processes), into a report folder of its own. */
export function runSim(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string }> {
  const out = mkdtempSync(join(tmpdir(), "sim-report-"));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "scripts/sim.ts", "--out", out, ...args],
      {
        env: { ...process.env, POWERTOOLS_LOG_LEVEL: "CRITICAL", ...env },
        timeout: 600_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

/** The history hashes a run printed, in order. */
export const hashesIn = (out: string): string[] =>
  [...out.matchAll(/history sha256 ([0-9a-f]{64})/g)].map((m) => m[1] as string);
