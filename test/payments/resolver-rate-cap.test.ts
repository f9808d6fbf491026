import { describe, expect, it } from "vitest";
import { paymentDeps } from "../../packages/core/src/payment/payment-wiring";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";

const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);

describe("the resolver's own PSP rate cap", () => {
  it("holds at 10 requests/s across three concurrent invocations", async () => {
    // prepare: 25 payments whose replies were lost, so that they are UNKNOWN
    stack().psp.setWebhookUrl(undefined);
    const token = await api().token("u9");
    await api().local("POST", "/faults", { psp_lose_reply: 25 });
    // Five at a time, so that none meets its deadline or the PSP's own rate limit on a loaded machine.
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) {
      const batch = await Promise.all(Array.from({ length: 5 }, () => api().pay(token, newKey(), order42())));
      answers.push(...batch.map((r) => r.status));
    }
    expect(answers.filter((s) => s === 202)).toHaveLength(25);
    await api().local("DELETE", "/faults");
    const { handler } = await import("../../packages/functions/src/cron/resolver");
    const seen: number[] = [];
    const deps = paymentDeps();
    const real = deps.psp.charge.bind(deps.psp);
    deps.psp.charge = async (...args) => {
      seen.push(Date.now());
      return real(...args);
    };
    // act
    const reports = await Promise.all([handler(), handler(), handler()]);
    deps.psp.charge = real;
    // assess: every payment settled, and no second of wall time saw more than 10 replays
    const settled = reports.flatMap((r) => ("settled" in r ? r.settled.map((s) => s.payment_id) : []));
    expect(new Set(settled).size).toBe(25);
    const perSecond = new Map<number, number>();
    for (const t of seen) perSecond.set(Math.floor(t / 1000), (perSecond.get(Math.floor(t / 1000)) ?? 0) + 1);
    // The cap counts tokens per second when they are taken; a call made a few ms later may fall into
    // the next second, hence the small allowance. Without the cap all 25 go out in well under a second;
    // with it they need three windows, over a second apart.
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(12);
    expect(Math.max(...seen) - Math.min(...seen)).toBeGreaterThanOrEqual(1000);
    expect(seen.length).toBeGreaterThanOrEqual(25);
  }, 30_000);
});
