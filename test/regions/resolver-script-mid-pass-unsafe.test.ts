import { describe, expect, it } from "vitest";
import { useScriptMidPass } from "./support/script-mid-pass";

const scriptMidPass = useScriptMidPass();

describe("a failover in the middle of the operator's resolve-unknowns (issue 40)", () => {
  // Skipped on 2026-12-06 20:20 UTC: this trace now fails at the commit that introduced it too (3d3c774, which passed
  // CI that morning): K1's settle is fenced in the script's process before the pass reaches K2, whatever the PSP's
  // hold. Open in the closing note; the Lambda pass's trace (resolver-rechecks.test.ts) still holds the guarantee.
  it.skip("counterfactual: a script that checked once replays K2 after the failover: order 2 is charged twice", async () => {
    // act
    const { report, charges } = await scriptMidPass({ EO_TEST_UNSAFE_OPERATOR_RESOLVER_CHECKS_ONCE: "1" });
    // assess
    expect(report.out).not.toMatch(/stopped: this Region is passive now/);
    expect(charges, report.out).toHaveLength(2);
  }, 120_000);
});
