import { describe, expect, it } from "vitest";
import { useScriptMidPass } from "./support/script-mid-pass";

const scriptMidPass = useScriptMidPass();

describe("a failover in the middle of the operator's resolve-unknowns (issue 40)", () => {
  it("counterfactual: a script that checked once replays K2 after the failover: order 2 is charged twice", async () => {
    // act
    const { report, charges } = await scriptMidPass({ EO_TEST_UNSAFE_OPERATOR_RESOLVER_CHECKS_ONCE: "1" });
    // assess
    expect(report.out).not.toMatch(/stopped: this Region is passive now/);
    expect(charges, report.out).toHaveLength(2);
  }, 120_000);
});
