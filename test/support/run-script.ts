import { execFile } from "node:child_process";

/**
 * Runs an operator script as a person would, with the handlers' environment. Asynchronously: the fake
 * PSP it calls lives in the test's process and must keep answering.
 */
export function runScript(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; out: string; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", script, ...args],
      { env: { ...process.env, ...env }, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number(err.code ?? 1) : 0, out: `${stdout}${stderr}`, stdout: String(stdout) }),
    );
  });
}
