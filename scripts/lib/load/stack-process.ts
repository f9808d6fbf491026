import { type ChildProcess, spawn } from "node:child_process";
import { freePort } from "../../../packages/local/src/emulators/free-port";
import type { LoadSettings } from "./load-settings";

/** The local stack the generator started, in its own process group so that it can be stopped by its id. */
export interface StartedStack {
  apiUrl: string;
  pid: number;
  stop(): Promise<void>;
}

const READY_WITHIN_MS = 180_000;

/** The environment of the stack: its ports, the resolver's schedule, the PSP's limits and our budget's caps. */
async function stackEnv(s: LoadSettings): Promise<NodeJS.ProcessEnv> {
  const ports = await Promise.all(Array.from({ length: 6 }, () => freePort()));
  const [api, standby, psp, dynamodb, sqs, ses] = ports.map(String);
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
      };
  return {
    ...process.env,
    API_PORT: api,
    STANDBY_API_PORT: standby,
    PSP_PORT: psp,
    DYNAMODB_PORT: dynamodb,
    SQS_PORT: sqs,
    SES_PORT: ses,
    RESOLVER_EVERY_MS: String(s.resolverEveryS * 1000),
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? "ERROR",
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    ...lifted,
  };
}

/** Starts `npm start`'s stack (both Regions) on free loopback ports and waits until its health answers 200. */
export async function startStack(s: LoadSettings, log: (line: string) => void): Promise<StartedStack> {
  const env = await stackEnv(s);
  const apiUrl = `http://127.0.0.1:${env.API_PORT}`;
  const child = spawn(process.execPath, ["--import", "tsx", "packages/local/src/main.ts"], {
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  child.stdout?.on("data", (d: Buffer) => output.push(d.toString()));
  child.stderr?.on("data", (d: Buffer) => output.push(d.toString()));
  const stop = () => stopGroup(child);
  try {
    await waitHealthy(apiUrl, child, log);
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n${output.join("").slice(-2_000)}`);
  }
  return { apiUrl, pid: child.pid as number, stop };
}

async function waitHealthy(apiUrl: string, child: ChildProcess, log: (line: string) => void): Promise<void> {
  const until = Date.now() + READY_WITHIN_MS;
  let last = 0;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the local stack exited with ${child.exitCode}`);
    const ok = await fetch(`${apiUrl}/_local/health`, { signal: AbortSignal.timeout(2_000) })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    if (Date.now() - last > 10_000) {
      log(`  starting the local stack (both Regions) at ${apiUrl} ...`);
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
