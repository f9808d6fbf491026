import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { renderedDom } from "../support/browser/rendered-dom";

const dir = mkdtempSync(join(tmpdir(), "story-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `npm run story` as a person would (its own private stack, both Regions); answers its exit code and output. */
function story(args: string[] = []): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "scripts/story.ts", ...args],
      { env: { ...process.env, POWERTOOLS_LOG_LEVEL: "ERROR" }, timeout: 170_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

describe("npm run story (Part 13, on the real local stack)", () => {
  it("plays the seed's timeline with its faults and ends with the seed's count: one charge, 12,000 → 15,000, one notification", async () => {
    // act
    const page = join(dir, "story.html");
    const { code, out } = await story(["--html", page]);
    const dom = await renderedDom(pathToFileURL(page).href);
    // assess: the page, as headless Chromium rendered it, shows the same count
    expect(dom).toContain("<li>charges at the PSP: 1</li>");
    expect(dom).toContain("<li>m1 balance: R1 15000, R2 15000</li>");
    expect(dom).toContain("<li>notifications shown: 1 (on the screen 1, alerts 2)</li>");
    expect(dom).toContain('class="ok">verdict: the seed\'s count (exit 0)</p>');
    expect(dom).toMatch(/<circle[^>]*>.*stream job/s);
    expect(out).toContain("all fired: relay_crash_after_publish, worker_crash_after_send");
    expect(out).toMatch(/v1 writes m2 = 500 to the sink and crashes/);
    expect(out).toMatch(/the full flush rewrote the restored keys and deleted m2's \(m2 now 0\)/);
    expect(out).toMatch(/m2's 0\n/);
    expect(out).toMatch(/retry at 10 s with K1: 202 PROCESSING/);
    expect(out).toMatch(/the buyer returns after two hours with K1: 201 SUCCEEDED/);
    expect(out).toMatch(/charges at the PSP {5}1 /);
    expect(out).toMatch(/merchant in R1 {9}2 credit record\(s\), balance 15000/);
    expect(out).toMatch(/merchant in R2 {9}2 credit record\(s\), balance 15000/);
    expect(out).toMatch(/notifications shown {4}1 /);
    expect(out).toMatch(/m1's daily total {7}R1 15000/);
    expect(out).toMatch(/resolve said VOID; charges for it: 0/);
    expect(out).toContain("verdict: the seed's count (exit 0)");
    expect(code).toBe(0);
  }, 180_000);

  // The branches (X, N, S, F, F2) each start a stack of their own, about 35 s of both cores: they are commands
  // (`npm run story -- --branch X` exits 1 with the seed's failure), and their guards are shown by the tests of
  // each guard (test/payments/buyer-returns.test.ts for X, test/stream-job/ for S, test/async/ for N).
  it("refuses a branch it does not know with exit 2 and the usage", async () => {
    // act
    const { code, out } = await story(["--branch", "Q"]);
    // assess
    expect(code).toBe(2);
    expect(out).toContain("usage: npm run story [-- --branch <X|N|S|3a|3b|3c|3d|R|V|M|F|F2>]");
  }, 60_000);
});
