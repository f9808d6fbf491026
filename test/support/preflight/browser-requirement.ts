import { type Browser, type BrowserSources, findBrowser } from "../browser/find-browser";

/** What the tests need a browser for, and what to install; part of the preflight's message. */
export const BROWSER_NEEDS = [
  "A headless Chromium or Chrome.",
  "  why: test/story/story.test.ts loads the story's page and reads what its scripts drew.",
  "  install: nothing on Linux x86_64: `npm ci` brings one (@sparticuz/chromium); it needs libnss3",
  "           (apt-get install libnss3; Debian's JDK packages bring it). Elsewhere, or for another browser:",
  "           apt-get install chromium (Debian) or chromium-browser (Ubuntu) or google-chrome-stable,",
  "           or set CHROMIUM_PATH to a Chromium or Chrome binary.",
].join("\n");

/** Finds the tests' browser; answers it, or what is wrong in one line (what was tried, missing paths grouped). */
export async function browserProblem(
  env: NodeJS.ProcessEnv = process.env,
  sources?: BrowserSources,
): Promise<{ browser?: Browser; problem?: string }> {
  const { browser, tried } = await findBrowser(env, sources);
  if (browser) return { browser };
  const missing = tried.filter((t) => t.endsWith(": ENOENT")).map((t) => t.replace(/ \(\w+\): ENOENT$/, ""));
  const failed = tried.filter((t) => !t.endsWith(": ENOENT"));
  const parts = [...failed, ...(missing.length ? [`not found: ${missing.join(", ")}`] : [])];
  return { problem: parts.join("; ") };
}
