import { type ChildProcess, spawn } from "node:child_process";

/** A child service started in its own process group, stopped with the whole group. */
export interface ManagedProcess {
  name: string;
  pid: number;
  /** The last lines the service printed, for a clear error when it fails to start. */
  output(): string;
  stop(): Promise<void>;
}

export interface SpawnServiceOptions {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Answers true once the service serves requests. */
  ready: () => Promise<boolean>;
  /**
   * A line the service prints once it is listening. Needed besides the health check: when the port
   * is taken, another process may answer that check while ours is failing to bind.
   */
  readyLine: string;
  timeoutMs?: number;
}

const live = new Set<ManagedProcess>();

/**
 * Starts a service detached (its own process group) with stdin held open: every service we start
 * exits when that pipe closes, so even a parent killed with SIGKILL leaves no orphan behind.
 */
export async function spawnService(opts: SpawnServiceOptions): Promise<ManagedProcess> {
  const child = spawn(opts.command, opts.args, {
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, ...opts.env },
  });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split("\n").filter(Boolean));
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const spawnError = new Promise<Error>((resolve) => child.once("error", resolve));
  if (child.pid === undefined)
    throw new Error(`${opts.name}: could not start ${opts.command}: ${await spawnError}`);
  const proc: ManagedProcess = {
    name: opts.name,
    pid: child.pid,
    output: () => lines.join("\n"),
    stop: () => stopGroup(child, exited).finally(() => live.delete(proc)),
  };
  live.add(proc);
  try {
    await waitReady(
      { ...opts, ready: async () => lines.some((l) => l.includes(opts.readyLine)) && opts.ready() },
      exited,
      spawnError,
    );
  } catch (err) {
    await proc.stop();
    throw new Error(`${(err as Error).message}\n--- ${opts.name} output ---\n${proc.output()}`);
  }
  return proc;
}

async function waitReady(opts: SpawnServiceOptions, exited: Promise<number | null>, failed: Promise<Error>) {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  let gone: string | undefined;
  void exited.then((code) => (gone = `${opts.name} exited with code ${code} before it was ready`));
  void failed.then((e) => (gone = `${opts.name}: ${e.message}`));
  while (Date.now() < deadline) {
    if (gone) throw new Error(gone);
    if (await opts.ready().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${opts.name} did not answer its health check within ${opts.timeoutMs ?? 30_000} ms`);
}

async function stopGroup(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  child.stdin?.end();
  signalGroup(child.pid, "SIGTERM");
  const timer = setTimeout(() => signalGroup(child.pid as number, "SIGKILL"), 3_000);
  await exited;
  clearTimeout(timer);
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Stops every service this process started; safe to call more than once. */
export async function stopAllServices(): Promise<void> {
  await Promise.all([...live].map((p) => p.stop()));
}

/** Whether a process id is still alive, for tests that assert nothing was left behind. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
