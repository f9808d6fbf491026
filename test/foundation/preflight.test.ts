import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { findBrowser } from "../support/browser/find-browser";
import { renderedDom } from "../support/browser/rendered-dom";
import { browserProblem } from "../support/preflight/browser-requirement";
import { requirementsMessage, unmetRequirements } from "../support/preflight/check-requirements";
import { javaProblem } from "../support/preflight/java-requirement";

const dir = mkdtempSync(join(tmpdir(), "preflight-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes an executable shell script into its own folder and answers that folder (to put on PATH) and its path. */
function fakeCommand(name: string, script: string): { bin: string; path: string } {
  const bin = mkdtempSync(join(dir, "bin-"));
  const path = join(bin, name);
  writeFileSync(path, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return { bin, path };
}

const noBundle = async () => ({ reason: "@sparticuz/chromium is not installed (run npm ci)" });
const working = fakeCommand("chromium", 'echo "Chromium 1.0"').path;

describe("the preflight: Java", () => {
  it.each([
    ["no java on PATH", "/nonexistent", "no `java` on PATH"],
    [
      "Java 8 (no modules)",
      fakeCommand("java", "echo 'Unrecognized option: --list-modules' >&2; exit 1").bin,
      "older than 9",
    ],
    [
      "Java 11",
      fakeCommand("java", "echo java.base@11.0.2; echo jdk.compiler@11.0.2").bin,
      "`java` is Java 11",
    ],
    [
      "a Java 17 JRE",
      fakeCommand("java", "echo java.base@17.0.15; echo java.sql@17.0.15").bin,
      "Java 17 without jdk.compiler (a JRE)",
    ],
  ])("names what is wrong with %s", (_, PATH, found) => {
    // act
    const problem = javaProblem({ PATH });
    // assess
    expect(problem).toContain(found);
  });

  it("accepts Java 17+ with its compiler module (the JDK on this machine, or a stand-in for it)", () => {
    // prepare
    const jdk = fakeCommand("java", "echo java.base@21.0.4; echo jdk.compiler@21.0.4").bin;
    // act + assess
    expect(javaProblem({ PATH: jdk })).toBeUndefined();
    expect(javaProblem()).toBeUndefined();
  });
});

describe("the preflight: the browser", () => {
  it("uses CHROMIUM_PATH when set, and only it: a wrong one is named, never replaced by another browser", async () => {
    // act
    const set = await findBrowser({ CHROMIUM_PATH: working }, { bundled: noBundle, system: [] });
    const wrong = await browserProblem(
      { CHROMIUM_PATH: "/nonexistent/chrome" },
      { bundled: noBundle, system: [working] },
    );
    // assess
    expect(set.browser).toEqual({ path: working, source: "CHROMIUM_PATH", version: "Chromium 1.0" });
    expect(wrong).toEqual({ problem: "not found: /nonexistent/chrome" });
  });

  it("falls back from a bundled Chromium that cannot start to the system's, and says why when none runs", async () => {
    // prepare: a bundled binary whose shared library is missing, as on a machine without libnss3
    const broken = fakeCommand(
      "chromium",
      "echo 'chromium: error while loading shared libraries: libnss3.so' >&2; exit 127",
    );
    const bundled = async () => ({ path: broken.path });
    // act
    const fallback = await findBrowser({}, { bundled, system: ["/nonexistent/chromium", working] });
    const none = await browserProblem(
      {},
      { bundled, system: ["/nonexistent/chromium", "/nonexistent/chrome"] },
    );
    // assess
    expect(fallback.browser).toMatchObject({ path: working, source: "system" });
    expect(none.problem).toBe(
      `${broken.path} (bundled): chromium: error while loading shared libraries: libnss3.so; not found: /nonexistent/chromium, /nonexistent/chrome`,
    );
  });

  it.runIf(process.platform === "linux" && process.arch === "x64")(
    "finds the Chromium shipped in @sparticuz/chromium first, and it renders a page's scripts",
    async () => {
      // prepare
      const page = join(dir, "page.html");
      writeFileSync(page, '<ul id="l"></ul><script>l.innerHTML = "<li>count: " + (1 + 1) + "</li>"</script>');
      // act
      const { browser } = await findBrowser({ PATH: process.env.PATH });
      const dom = await renderedDom(pathToFileURL(page).href);
      // assess
      expect(browser).toMatchObject({ source: "bundled", version: expect.stringMatching(/^Chromium 147\./) });
      expect(dom).toContain('<ul id="l"><li>count: 2</li></ul>');
    },
    60_000,
  );
});

describe("the preflight: its message", () => {
  it("lists every unmet requirement with the Debian packages and alternatives to install", async () => {
    // act
    const unmet = await unmetRequirements({ PATH: "/nonexistent" }, { bundled: noBundle, system: [] });
    const message = requirementsMessage(unmet);
    // assess
    expect(unmet).toHaveLength(2);
    expect(message).toMatch(/^npm test stopped before running any test: 2 system requirements are missing/);
    expect(message).toContain("1. Java 17 or later with its compiler module jdk.compiler");
    expect(message).toContain("apt-get install openjdk-17-jdk-headless");
    expect(message).toContain("on Debian 13: openjdk-21-jdk-headless");
    expect(message).toContain("found: no `java` on PATH");
    expect(message).toContain("2. A headless Chromium or Chrome.");
    expect(message).toContain(
      "apt-get install chromium (Debian) or chromium-browser (Ubuntu) or google-chrome-stable",
    );
    expect(message).toContain("set CHROMIUM_PATH");
    expect(message).toContain("found: bundled: @sparticuz/chromium is not installed (run npm ci)");
  });
});

/** Runs vitest as `npm test` does under CI (no terminal), on one cheap file; answers its exit code, output and time. */
function vitestRun(env: NodeJS.ProcessEnv): Promise<{ code: number; out: string; ms: number }> {
  const started = Date.now();
  const args = ["node_modules/vitest/vitest.mjs", "run", "packages/core/test/state-facts.test.ts"];
  // Plain text, as in a CI log: this worker runs with FORCE_COLOR, which the child would inherit.
  const { FORCE_COLOR: _, ...rest } = env;
  const plain = { ...rest, CI: "true", NO_COLOR: "1" };
  return new Promise((resolve) => {
    const child = execFile(process.execPath, args, { env: plain, timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, out: `${stdout}${stderr}`, ms: Date.now() - started }),
    );
    child.stdin?.end();
  });
}

describe("the preflight stops the run", () => {
  it("in its first seconds, before any test, with the message, when Java is missing", async () => {
    // prepare: a PATH with node alone
    const bin = mkdtempSync(join(dir, "path-"));
    symlinkSync(process.execPath, join(bin, "node"));
    // act
    const { code, out, ms } = await vitestRun({ PATH: bin, HOME: process.env.HOME });
    // assess
    expect(code).toBe(1);
    expect(out).toContain("npm test stopped before running any test: 1 system requirement is missing");
    expect(out).toContain("found: no `java` on PATH");
    expect(out).not.toMatch(/Test Files|passed/);
    expect(ms).toBeLessThan(30_000);
  }, 60_000);

  it("when the browser CHROMIUM_PATH names is not there", async () => {
    // act
    const { code, out } = await vitestRun({ ...process.env, CHROMIUM_PATH: "/nonexistent/chrome" });
    // assess
    expect(code).toBe(1);
    expect(out).toContain("1. A headless Chromium or Chrome.");
    expect(out).toContain("found: not found: /nonexistent/chrome");
    expect(out).not.toMatch(/Test Files|passed/);
  }, 60_000);

  it("and lets it go on when all is there", async () => {
    // act
    const { code, out } = await vitestRun({ ...process.env });
    // assess
    expect(code, out).toBe(0);
    expect(out).toMatch(/Test Files {2}1 passed/);
  }, 60_000);
});
