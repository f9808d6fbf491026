import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runSim } from "./support";

// The schedules the simulation found in Stripe's dialect (pm_card_refundFail's refunds that fail later), kept with
// the seed and index they were found at; Stripe's dialect only (vitest.config.ts, STRIPE_ONLY), as the emulator
// stack's kept regressions play in the generic one.
if (process.env.PSP !== "stripe")
  throw new Error("the Stripe regressions run in Stripe's dialect: PSP=stripe");

const DIR = "test/sim/regressions-stripe";
const kept = readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .map((f) => {
    const path = join(DIR, f);
    return { path, guard: (JSON.parse(readFileSync(path, "utf8")) as { guard: string }).guard };
  });

describe("the refunds Stripe fails later, kept regressions on the simulation (issue 42)", () => {
  it("plays every kept Stripe schedule with no violation", async () => {
    // act
    const run = await runSim(kept.flatMap((k) => ["--replay-file", k.path]));
    // assess
    expect(kept).toHaveLength(4);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain(`${kept.length} files played, 0 with a violation`);
  }, 300_000);

  it("catches each with the guard it names taken away", async () => {
    // act
    const run = await runSim([...kept.flatMap((k) => ["--replay-file", k.path]), "--unsafe-own-guard"]);
    // assess
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain(`${kept.length} files played with their guards removed, ${kept.length} caught`);
    for (const k of kept) expect(run.out).toContain(`caught      ${k.path} without ${k.guard}: `);
  }, 300_000);
});
