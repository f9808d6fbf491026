import { describe, expect, inject, it } from "vitest";
import { awaitRun } from "../../support/sim-background/await-run";
import { GUARDS, guardRun, guardWithin } from "../../support/sim-background/plan";

// Each run was played in the background while the emulator files ran (test/support/sim-background/): this file
// judges its report, as the test that played it in the foreground did.
describe("the checker can fail on the simulation: each guard taken away is caught (issue 42)", () => {
  for (const g of GUARDS) {
    const within = guardWithin(g);
    it(`with ${g.guard} off${"stripe" in g ? " (Stripe)" : ""}, fails at schedule ${g.at} of seed ${g.seed} (within ${within})`, async () => {
      // act
      const run = await awaitRun(inject("simBackground"), guardRun(g).name);
      // assess: the lowest failing index (whichever process played it) and the seed's failure
      const caught = [...run.out.matchAll(/VIOLATION in schedule (\d+): (.*)/g)].sort(
        (a, b) => Number(a[1]) - Number(b[1]),
      )[0];
      expect(run.code, run.out.slice(-3_000)).toBe(1);
      expect(Number(caught?.[1])).toBeLessThan(within);
      expect(caught?.[2]).toMatch(g.failure);
    }, 1_800_000);
  }
});
