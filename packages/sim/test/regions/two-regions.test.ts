import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("two Regions in one process", () => {
  it("gives each Region its own instance of the production modules and its own environment", () => {
    // act
    const out = execFileSync("npx", ["tsx", "packages/sim/test/regions/fixtures/two-regions-probe.ts"], {
      encoding: "utf8",
      env: { ...process.env, AWS_REGION: "" },
    });
    // assess
    const probe = JSON.parse(out.trim().split("\n").at(-1) ?? "{}");
    expect(probe).toEqual({
      primaryRegion: "eu-west-1",
      standbyRegion: "eu-central-1",
      distinctModules: true,
      outsideScope: "",
    });
  }, 60_000);
});
