import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { type CdpPipe, cdpPipe } from "./cdp-pipe";
import { requireBrowser } from "./find-browser";

// Quiet: without the background-networking flags Chromium keeps dialling Google's hosts, which this closed
// network refuses; a new profile per page keeps runs apart.
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"];
const QUIET = ["--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** A headless Chromium driven over CDP on a pipe, in a process group of its own. */
export interface LaunchedChromium {
  path: string;
  cdp: CdpPipe;
  /** Rejects with the browser's last stderr when it exits (or is killed at the deadline) before `close`. */
  failed: Promise<never>;
  close(): Promise<void>;
}

/** Starts the browser findBrowser picks; it is killed after `timeoutMs` whatever it is doing. */
export async function launchChromium(timeoutMs: number, what: string): Promise<LaunchedChromium> {
  const { path } = await requireBrowser();
  const profile = mkdtempSync(join(tmpdir(), "chromium-profile-"));
  const child = spawn(path, [...FLAGS, ...QUIET, `--user-data-dir=${profile}`, "--remote-debugging-pipe"], {
    stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr?.on("data", (d) => (stderr = `${stderr}${d}`.slice(-2000)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let timedOut = false;
  let closing = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child);
  }, timeoutMs);
  const cdp = cdpPipe(child.stdio[3] as Writable, child.stdio[4] as Readable);
  const failed = exited.then(() => {
    if (closing) return new Promise<never>(() => undefined);
    const why = timedOut ? `did not ${what} within ${timeoutMs} ms` : `exited before it could ${what}`;
    throw new Error(`${path} ${why}: ${stderr}`);
  });
  failed.catch(() => undefined);
  const close = async () => {
    closing = true;
    // A browser may exit before it answers Browser.close.
    await Promise.race([cdp.send("Browser.close").catch(() => undefined), exited]);
    clearTimeout(timer);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    killGroup(child);
    rmSync(profile, { recursive: true, force: true });
  };
  return { path, cdp, failed, close };
}

/** Ends the browser and every helper process it started (one process group), if any is left. */
function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}
