import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LoadSettings } from "./load-settings";

/** The local stack the generator started, in its own process group so that it can be stopped by its id. */
export interface StartedStack {
  apiUrl: string;
  pid: number;
  stop(): Promise<void>;
}

const READY_WITHIN_MS = 180_000;

/**
 * The environment of the stack: ports of 0 (the stack binds what the kernel gives and writes them to its ready file,
 * so parallel stacks never race for a port), the resolver's schedule, the PSP's limits and our budget's caps.
 * The rest of this process's environment passes through (a test switch such as EO_TEST_UNSAFE_NO_FAIR_QUEUE too).
 */
export function stackEnv(s: LoadSettings, readyFile: string): NodeJS.ProcessEnv {
  const lifted = s.liftCaps
    ? {
        FAKE_PSP_ACCOUNT_LIMIT_PER_S: "1000000",
        FAKE_PSP_ENDPOINT_LIMIT_PER_S: "1000000",
        PSP_RATE_PER_S: "4000000",
        PSP_ENDPOINT_RATE_PER_S: "1000000",
      }
    : {
        FAKE_PSP_ACCOUNT_LIMIT_PER_S: String(s.pspAccountLimit),
        FAKE_PSP_ENDPOINT_LIMIT_PER_S: String(s.pspEndpointLimit),
        ...(s.budget && {
          PSP_RATE_PER_S: String(s.budget.accountPerS),
          PSP_ENDPOINT_RATE_PER_S: String(s.budget.endpointPerS),
          RESOLVER_RATE_PER_S: String(s.budget.resolverPerS),
        }),
      };
  return {
    ...process.env,
    ...portsOfZero(readyFile),
    RESOLVER_EVERY_MS: String(s.resolverEveryS * 1000),
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? "ERROR",
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    ...lifted,
  };
}

/** Starts `npm start`'s stack (both Regions) on free loopback ports and waits until its health answers 200. */
export async function startStack(s: LoadSettings, log: (line: string) => void): Promise<StartedStack> {
  return spawnStack((readyFile) => stackEnv(s, readyFile), log);
}

/**
 * Starts `npm start`'s entry point in its own process group with the environment `envOf` gives (it must set
 * EO_READY_FILE to the file it is handed) and waits until its health answers 200.
 */
export async function spawnStack(
  envOf: (readyFile: string) => NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<StartedStack> {
  const dir = mkdtempSync(join(tmpdir(), "eo-stack-"));
  const readyFile = join(dir, "ready.json");
  const child = spawn(process.execPath, ["--import", "tsx", "packages/local/src/main.ts"], {
    env: envOf(readyFile),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  child.stdout?.on("data", (d: Buffer) => output.push(d.toString()));
  child.stderr?.on("data", (d: Buffer) => output.push(d.toString()));
  const stop = () => stopGroup(child).finally(() => rmSync(dir, { recursive: true, force: true }));
  try {
    const apiUrl = await waitHealthy(readyFile, child, log);
    return { apiUrl, pid: child.pid as number, stop };
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n${output.join("").slice(-2_000)}`);
  }
}

/** The ports of a stack that binds what the kernel gives and tells its parent in the ready file. */
export function portsOfZero(readyFile: string): NodeJS.ProcessEnv {
  return {
    API_PORT: "0",
    STANDBY_API_PORT: "0",
    PSP_PORT: "0",
    DYNAMODB_PORT: "0",
    SQS_PORT: "0",
    SES_PORT: "0",
    EO_READY_FILE: readyFile,
  };
}

async function waitHealthy(
  readyFile: string,
  child: ChildProcess,
  log: (line: string) => void,
): Promise<string> {
  const until = Date.now() + READY_WITHIN_MS;
  let last = 0;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the local stack exited with ${child.exitCode}`);
    const apiUrl = existsSync(readyFile)
      ? (JSON.parse(readFileSync(readyFile, "utf8")).apiUrl as string)
      : undefined;
    const ok =
      apiUrl !== undefined &&
      (await fetch(`${apiUrl}/_local/health`, { signal: AbortSignal.timeout(2_000) })
        .then((r) => r.ok)
        .catch(() => false));
    if (ok) return apiUrl;
    if (Date.now() - last > 10_000) {
      log(`  starting the local stack (both Regions, pid ${child.pid}) ...`);
      last = Date.now();
    }
    await new Promise((done) => setTimeout(done, 500));
  }
  throw new Error(`the local stack did not become healthy within ${READY_WITHIN_MS / 1000} s`);
}

// SIGTERM to the stack's process group: main.ts stops every emulator it started and exits.
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  process.kill(-child.pid, "SIGTERM");
  const timer = setTimeout(() => {
    if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
  }, 30_000);
  await exited;
  clearTimeout(timer);
}
