import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { cdpPipe } from "./cdp-pipe";
import { requireBrowser } from "./find-browser";

// Quiet: without the background-networking flags Chromium keeps dialling Google's hosts, which this closed
// network refuses; a new profile per page keeps runs apart.
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"];
const QUIET = ["--disable-background-networking", "--disable-component-update", "--disable-sync"];

/**
 * Loads a page in headless Chromium (the one findBrowser picks) and answers its DOM once the load event fired,
 * that is after its scripts ran. Driven over CDP on a pipe: the bundled Chromium never answers `--dump-dom`.
 */
export async function renderedDom(url: string, timeoutMs = 60_000): Promise<string> {
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
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid);
  }, timeoutMs);
  try {
    const cdp = cdpPipe(child.stdio[3] as Writable, child.stdio[4] as Readable);
    const failed = exited.then(() => {
      const why = timedOut ? `did not load ${url} within ${timeoutMs} ms` : "exited before the page loaded";
      throw new Error(`${path} ${why}: ${stderr}`);
    });
    const read = readDom(cdp, url);
    const dom = await Promise.race([read, failed]);
    // A browser may exit before it answers Browser.close.
    await Promise.race([cdp.send("Browser.close").catch(() => undefined), exited]);
    return dom;
  } finally {
    clearTimeout(timer);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    killGroup(child.pid);
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Opens a tab, navigates, waits for the load event and reads the document's HTML. */
async function readDom(cdp: ReturnType<typeof cdpPipe>, url: string): Promise<string> {
  const { targetId } = await cdp.send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = (await cdp.send("Target.attachToTarget", { targetId, flatten: true })) as {
    sessionId: string;
  };
  await cdp.send("Page.enable", {}, sessionId);
  const loaded = cdp.once("Page.loadEventFired", sessionId);
  await cdp.send("Page.navigate", { url }, sessionId);
  await loaded;
  const expression = "document.documentElement.outerHTML";
  const { result } = (await cdp.send("Runtime.evaluate", { expression, returnByValue: true }, sessionId)) as {
    result: { value: string };
  };
  return result.value;
}

/** Ends the browser and every helper process it started (one process group), if any is left. */
function killGroup(pid: number | undefined): void {
  try {
    if (pid) process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}
