import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSettings } from "../../scripts/lib/load/load-settings";
import { runLoad } from "../../scripts/lib/load/run-load";
import { writeReports } from "../../scripts/lib/load/write-report";

// The bounded sample of issue 29's run (`npm run load -- --rate 8 --duration 30 --scale 5 --horizon 60`): the same
// command on its own stack (the PSP 20:5, our budget 4/s endpoint), 1.6x the scaled cap, for 8 s instead of 30.
// The long run and the fairness switched off are `npm run bench:load`.
const quiet = () => undefined;
// The target on the tail: the final-answer p99 within 1.25x the least possible worst wait in tap order. A
// timing figure, so this file runs alone (`*.alone.test.ts`, see vitest.config.ts): with another stack on the two
// cores the stack's first seconds slow down and the same run measured 1.3x to 1.6x; alone, 1.04x.
const P99_OVER_BOUND = 1.25;

describe("a flash sale at 1.6x the PSP's cap", () => {
  it("serves every buyer a final answer within the horizon, the p99 within 1.25x the FIFO bound, no 429 at the PSP", async () => {
    // prepare
    const s = loadSettings([
      ...["--rate", "8", "--duration", "8", "--scale", "5", "--horizon", "60"],
      ...["--callers", "24", "--merchants", "4", "--declines", "0"],
    ]);
    // act
    const report = await runLoad(s, quiet);
    const { html } = await writeReports(join(tmpdir(), `eo-overload-${report.run_id}`), report);
    // assess
    const b = report.buyers;
    console.log(`p99 ${b?.final_p99_s} s, ${b?.p99_over_bound}x the FIFO bound; the run's report: ${html}`);
    expect(b, "the report judges the buyers").toBeDefined();
    if (!b) return;
    expect(report.invariants.filter((i) => !i.ok).map((i) => `${i.name}: ${i.detail}`)).toEqual([]);
    expect(b.buyers).toBeGreaterThan(40);
    expect(b.gave_up).toBe(0);
    expect(b.final_within_horizon).toBe(b.buyers);
    // 8 s of 8/s against 4/s leaves the last tap about 8 s to wait: a queue the ratio can be judged on.
    expect(b.fifo_bound_s).toBeGreaterThan(5);
    expect(b.final_p99_s).toBeLessThanOrEqual(P99_OVER_BOUND * b.fifo_bound_s);
    expect(report.summary["429s at the PSP"]).toBe(0);
    expect(report.summary["503 answers (budget spent, retried)"]).toBeGreaterThan(0);
    expect(report.summary["202 answers"]).toBe(0);
    expect(report.ok).toBe(true);
  }, 240_000);
});
