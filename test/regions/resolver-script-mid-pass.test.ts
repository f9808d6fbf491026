import { describe, expect, it } from "vitest";
import { useScriptMidPass } from "./support/script-mid-pass";

const scriptMidPass = useScriptMidPass();

describe("a failover in the middle of the operator's resolve-unknowns (issue 40)", () => {
  it("the script re-checks before each PSP call and stops at the new epoch: exit 1, order 2 charged once", async () => {
    // act
    const { voided, report, charges, k2 } = await scriptMidPass();
    // assess
    expect(voided.body.state).toBe("VOID");
    expect(report.code, report.out).toBe(1);
    // The re-check before K2's call stops it; on a loaded machine the failover can outlast K1's held call, and then
    // the fence refuses K1's settle write first: the same stop, said so.
    expect(report.out).toMatch(
      /stopped: this Region is passive now \((the authority moved to epoch \d+|a ledger write was refused by the fence; the authority is at epoch \d+, the run began at 1)\)/,
    );
    expect(report.out).not.toMatch(new RegExp(`${k2}\\s+\\w+ -> SUCCEEDED`));
    expect(charges, report.out).toHaveLength(1);
  }, 120_000);
});
