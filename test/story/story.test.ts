import { execFile } from "node:child_process";
import { describe, expect, it } from "vitest";

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
    const { code, out } = await story();
    // assess
    expect(out).toContain(
      "all fired: relay_crash_after_publish, worker_crash_after_send, stream_job_crash_after_sink",
    );
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

  it("refuses what it does not play yet with exit 2 and the usage", async () => {
    // act
    const { code, out } = await story(["--branch", "X"]);
    // assess
    expect(code).toBe(2);
    expect(out).toContain("usage: npm run story");
  }, 60_000);
});
