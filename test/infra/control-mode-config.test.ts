import { describe, expect, it } from "vitest";
import { readConfig } from "../../stacks/config";
import { MRSC_REGION_SETS, mrscRegionSet } from "../../stacks/mrsc-region-sets";

// The deploy-time refusal of an MRSC mode that cannot work (a table's Regions cannot change once it exists).
// That a single-region authority's table lives in WITNESS_REGION is checked under mocks (control-invariant.ts).
const base = { JWT_ISSUER: "https://auth.example.com/", EMAIL_SENDER: "receipts@pay.example.net" };
const ACROSS_SETS = { PRIMARY_REGION: "us-east-1", STANDBY_REGION: "eu-west-1", WITNESS_REGION: "us-east-2" };

describe("CONTROL_MODE and the MRSC Region sets", () => {
  it("defaults to an MRSC authority on the default (US) Regions", () => {
    const config = readConfig("dev", base);
    expect(config.controlMode).toBe("mrsc");
    expect(mrscRegionSet(Object.values(config.regions))).toBe("US");
  });

  it.each(Object.entries(MRSC_REGION_SETS))("accepts mrsc on three Regions of the %s set", (_name, set) => {
    const [primary, standby, witness] = set as string[];
    const env = { ...base, PRIMARY_REGION: primary, STANDBY_REGION: standby, WITNESS_REGION: witness };
    expect(readConfig("dev", { ...env, CLAIM_MODE: "mrsc" }).controlMode).toBe("mrsc");
  });

  it("refuses mrsc across Region sets, naming the sets and the alternative", () => {
    const refuse = () => readConfig("dev", { ...base, ...ACROSS_SETS, CONTROL_MODE: "mrsc" });
    expect(refuse).toThrow(/CONTROL_MODE=mrsc/);
    expect(refuse).toThrow(/US: us-east-1, us-east-2, us-west-2; EU: .*; AP: ap-northeast-1/);
    expect(refuse).toThrow(/got us-east-1, eu-west-1, us-east-2/);
    expect(refuse).toThrow(/set CONTROL_MODE=single-region/);
    // The default mode is mrsc: leaving CONTROL_MODE unset is refused the same way.
    expect(() => readConfig("dev", { ...base, ...ACROSS_SETS })).toThrow(/CONTROL_MODE=single-region/);
  });

  it("refuses mrsc when only the witness is outside the application Regions' set", () => {
    const env = {
      ...base,
      PRIMARY_REGION: "us-east-1",
      STANDBY_REGION: "us-west-2",
      WITNESS_REGION: "eu-west-1",
    };
    expect(() => readConfig("dev", env)).toThrow(/one MRSC Region set/);
  });

  it("accepts single-region across Region sets, the authority in WITNESS_REGION", () => {
    const config = readConfig("dev", {
      ...base,
      ...ACROSS_SETS,
      WITNESS_REGION: "ca-central-1",
      CONTROL_MODE: "single-region",
    });
    expect(config.controlMode).toBe("single-region");
    expect(config.regions.witness).toBe("ca-central-1");
  });

  it("refuses MRSC claims across Region sets too, naming CLAIM_MODE=home", () => {
    const env = { ...base, ...ACROSS_SETS, CONTROL_MODE: "single-region", CLAIM_MODE: "mrsc" };
    expect(() => readConfig("dev", env)).toThrow(/CLAIM_MODE=mrsc .*set CLAIM_MODE=home/);
  });

  it.each(["MRSC", "single", " mrsc", "global"])("refuses CONTROL_MODE=%j", (mode) => {
    expect(() => readConfig("dev", { ...base, CONTROL_MODE: mode })).toThrow(
      /CONTROL_MODE must be "mrsc" or "single-region"/,
    );
  });
});
