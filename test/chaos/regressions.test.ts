import { describe, expect, it } from "vitest";
import { ChaosApi } from "../../scripts/lib/chaos/chaos-api";
import { CHAOS_STACK_OPTIONS, chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import { runOne } from "../../scripts/lib/chaos/run-one";
import { useLocalStack } from "../support/local-stack";
import { keptRegressions } from "./support/regressions";

Object.assign(process.env, chaosEnv());

describe("schedules the long run once found violating, in one Region", () => {
  const stack = useLocalStack(CHAOS_STACK_OPTIONS);
  for (const kept of keptRegressions(1))
    it(`${kept.name}: no violation`, async () => {
      // act
      const record = await runOne(new ChaosApi(stack().apiUrl), kept.schedule);
      // assess
      expect(record.violations, kept.why).toEqual([]);
    }, 60_000);
});

describe("DELETE /_local/faults answers what it cleared", () => {
  const stack = useLocalStack(CHAOS_STACK_OPTIONS);
  it("names the faults still armed, so a fault taken in between is counted as fired", async () => {
    // prepare
    const api = new ChaosApi(stack().apiUrl);
    await api.local("POST", "/faults", { crash_at: "worker.after_send", n: 1 });
    await api.local("POST", "/faults", { psp_lose_reply: 1, n: 1 });
    // act
    const first = await api.local<{ cleared: Record<string, unknown> }>("DELETE", "/faults");
    const second = await api.local<{ cleared: Record<string, unknown> }>("DELETE", "/faults");
    // assess
    expect(first.cleared).toEqual({ crash_at: "worker.after_send", psp_lose_reply: 1 });
    expect(second.cleared).toEqual({});
  });
});
