import { spawnSync } from "node:child_process";
import { bundledChromium } from "./bundled-chromium";

/** A browser that answered `--version`, and where it came from. */
export interface Browser {
  path: string;
  source: "CHROMIUM_PATH" | "bundled" | "system";
  version: string;
}

/** The system's usual Chromium and Chrome binaries, by absolute path and by name on PATH. */
export const SYSTEM_BROWSERS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "chromium",
  "chromium-browser",
  "google-chrome",
  "google-chrome-stable",
];

/** Where to look; tests hand in their own to show what happens when nothing is found. */
export interface BrowserSources {
  bundled: () => Promise<{ path?: string; reason?: string }>;
  system: string[];
}

/** Runs `<browser> --version`; answers its version line, or why it did not run. */
export function browserVersion(path: string, env: NodeJS.ProcessEnv): { version?: string; reason?: string } {
  const r = spawnSync(path, ["--version"], { env, encoding: "utf8", timeout: 20_000 });
  if (r.error) return { reason: (r.error as NodeJS.ErrnoException).code ?? r.error.message };
  const version = r.stdout.trim().split("\n")[0];
  if (r.status === 0 && version) return { version };
  return { reason: (r.stderr.trim().split("\n").pop() ?? "") || `exit ${r.status}` };
}

/**
 * Finds the browser every browser test uses: CHROMIUM_PATH when set (and then only it), else the Chromium
 * shipped in the npm package @sparticuz/chromium, else the system's Chromium or Chrome. Answers the first that
 * runs, and what was tried.
 */
export async function findBrowser(
  env: NodeJS.ProcessEnv = process.env,
  sources: BrowserSources = { bundled: bundledChromium, system: SYSTEM_BROWSERS },
): Promise<{ browser?: Browser; tried: string[] }> {
  const tried: string[] = [];
  const attempt = (path: string, source: Browser["source"]): Browser | undefined => {
    const { version, reason } = browserVersion(path, env);
    if (version) return { path, source, version };
    tried.push(`${path} (${source}): ${reason}`);
    return undefined;
  };
  // An explicit choice is never silently replaced by another browser.
  if (env.CHROMIUM_PATH) return { browser: attempt(env.CHROMIUM_PATH, "CHROMIUM_PATH"), tried };
  const bundled = await sources.bundled();
  const fromPackage = bundled.path ? attempt(bundled.path, "bundled") : undefined;
  if (fromPackage) return { browser: fromPackage, tried };
  if (bundled.reason) tried.push(`bundled: ${bundled.reason}`);
  for (const path of sources.system) {
    const found = attempt(path, "system");
    if (found) return { browser: found, tried };
  }
  return { tried };
}

/** The browser for a test to use; throws the preflight's reason when there is none (the preflight stops before). */
export async function requireBrowser(): Promise<Browser> {
  const { browser, tried } = await findBrowser();
  if (!browser) throw new Error(`no headless Chromium runs here: ${tried.join("; ")}`);
  return browser;
}
