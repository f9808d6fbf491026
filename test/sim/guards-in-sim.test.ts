import { describe, expect, it } from "vitest";
import { runSim } from "./support";

/**
 * Each guard switch the simulation catches within a few hundred schedules, with the seed, the nemesis and the PSP it
 * was measured with, the index it first fails at, and the failure the seed describes for it. A run is the same on
 * every machine (byte for byte), so `within` is the first failing index with a little room, not a hope. The guards
 * no seed has caught yet (trust-own-copy, worker-ignores-authority, no-resolver-recheck, rows-last-writer-wins,
 * operator-clock-stamp, and active-keeps-dead-letters outside its kept file) are in docs/fault-checker.md.
 */
const GUARDS = [
  { guard: "no-durable-guard", seed: 4242, at: 1, failure: /nothing-unknown|one-charge-per/ },
  { guard: "random-event-id", seed: 4242, at: 2, failure: /credited-once/ },
  { guard: "new-key-per-retry", seed: 4242, at: 5, failure: /one-charge-per-order/ },
  { guard: "no-notification-record", seed: 4242, at: 8, failure: /alerts-bounded/ },
  { guard: "unconditional-completion", seed: 4242, at: 12, failure: /one-first-answer/ },
  { guard: "void-on-lagging-not-found", seed: 1, at: 4, failure: /answers-agree/, realWorld: true },
  {
    guard: "no-refund-mark",
    seed: 5,
    at: 39,
    failure: /no-state-backwards|no-lost-payment/,
    realWorld: true,
  },
  { guard: "no-refund-failed-notice", seed: 4242, at: 33, failure: /emails-bounded/, stripe: true },
  { guard: "no-refund-take-back", seed: 1, at: 5, failure: /credited-once/, stripe: true },
  { guard: "take-early-events", seed: 4242, at: 136, failure: /no-lost-payment/, stripe: true },
] as const;

describe("the checker can fail on the simulation: each guard taken away is caught (issue 42)", () => {
  // the runs use both processes each: one at a time

  for (const g of GUARDS) {
    const realWorld = "realWorld" in g || "stripe" in g;
    const within = Math.ceil((g.at + 1) * 1.25) + 4;
    it(`with ${g.guard} off${"stripe" in g ? " (Stripe)" : ""}, fails at schedule ${g.at} of seed ${g.seed} (within ${within})`, async () => {
      // act
      const run = await runSim(
        [
          ...["--seed", String(g.seed), "--runs", String(within), "--unsafe", g.guard],
          ...["--parallel", "2", "--no-shrink"],
          ...(realWorld ? ["--regions", "2", "--nemesis", "real-world"] : []),
        ],
        "stripe" in g ? { PSP: "stripe" } : {},
      );
      // assess: the lowest failing index (whichever process played it) and the seed's failure
      const caught = [...run.out.matchAll(/VIOLATION in schedule (\d+): (.*)/g)].sort(
        (a, b) => Number(a[1]) - Number(b[1]),
      )[0];
      expect(run.code, run.out.slice(-3_000)).toBe(1);
      expect(Number(caught?.[1])).toBeLessThan(within);
      expect(caught?.[2]).toMatch(g.failure);
    }, 300_000);
  }
});
