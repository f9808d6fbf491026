import { describe, expect, it } from "vitest";
import { deployedActWindow } from "../../scripts/lib/failover/deployed-act-window";
import type { Target } from "../../scripts/lib/target/target";

// The act window the failover waits out comes from the stage's outputs, never from the operator's shell.
const stage = (tunables: Record<string, string>): Target =>
  ({ kind: "stage", where: "stage test", claimMode: "home", tunables }) as unknown as Target;

describe("the act window a failover waits out", () => {
  it("is the stage's longest acting timeout plus the caches and the SDK's second, whatever the shell says", () => {
    // act
    const w = deployedActWindow(stage({ FUNCTION_TIMEOUT_MS: "120000" }), { FUNCTION_TIMEOUT_MS: "30000" });
    // assess: 2 s control cache + 120 s + 1 s
    expect(w).toEqual({ ms: 123_000 });
  });

  it("assumes Lambda's 900 s for a stage deployed before its outputs named it, and says so", () => {
    // act
    const w = deployedActWindow(stage({ RESOLVER_RATE_PER_S: "10" }), {});
    // assess
    expect(w.ms).toBe(903_000);
    expect(w.note).toMatch(/do not name its longest function timeout.*900 s; redeploy/);
  });
});
