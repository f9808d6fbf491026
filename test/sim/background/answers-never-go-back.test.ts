import { describe, expect, inject, it } from "vitest";
import { awaitRun } from "../../support/sim-background/await-run";
import { ANSWERS_TAKEN_BACK, takenBackRun } from "../../support/sim-background/plan";

// Replayed in the background while the emulator files ran (test/support/sim-background/); this file judges the reports.
describe("a lagging lookup after one that found the charge, on the simulation", () => {
  for (const f of ANSWERS_TAKEN_BACK) {
    it(`plays seed ${f.seed}'s schedule ${f.index} with no violation, and with forget-psp-find hears SUCCEEDED taken back`, async () => {
      // act
      const kept = await awaitRun(inject("simBackground"), takenBackRun(f, true).name);
      const forgot = await awaitRun(inject("simBackground"), takenBackRun(f, false).name);
      // assess
      expect(kept.code, kept.out.slice(-2_000)).toBe(0);
      expect(kept.out).toContain("no violation");
      expect(forgot.code, forgot.out.slice(-2_000)).toBe(1);
      expect(forgot.out).toMatch(
        /no-state-backwards: pay_\w+: heard SUCCEEDED, then PROCESSING \(resolve 200\)/,
      );
    }, 1_800_000);
  }
});
