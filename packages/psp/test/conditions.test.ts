import { armedFaults, armFault, clearFaults, parseFaultRequest } from "@eo/core";
import { afterEach, describe, expect, it } from "vitest";
import { type FakePsp, startFakePsp } from "../src/index";
import { sampleLatencyMs } from "../src/latency";
import { createRandom } from "../src/random";
import { type Answer, type ChargeJson, call, chargeBody } from "./http-client";

let psp: FakePsp | undefined;

afterEach(async () => {
  clearFaults();
  await psp?.stop();
  psp = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const charge = (url: string, key: string) =>
  call<ChargeJson>(url, "POST", "/v1/charges", { key, json: chargeBody({ reference: key }) });
/** A charge's answer, or "dropped" when the connection closed without one. */
const settle = (p: Promise<Answer<ChargeJson>>) =>
  p.then(
    (a) => a.status,
    () => "dropped" as const,
  );

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
}

describe("an outage window (psp_outage_ms)", () => {
  it("answers the first POST 503 at the edge, unsaved: the same key after the window charges once", async () => {
    psp = await startFakePsp({ webhookSecret: "s" });
    armFault("psp_outage_ms", 300, 1);

    const during = await charge(psp.url, "k1");
    const chargedDuring = psp.charges().length;
    await sleep(350);
    const after = await charge(psp.url, "k1");

    expect(during.status).toBe(503);
    expect(chargedDuring).toBe(0);
    expect(after.status).toBe(200);
    expect(after.headers["idempotent-replayed"]).toBeUndefined();
    expect(psp.charges()).toHaveLength(1);
  });

  it("runs the second POST and drops its reply: the same key after the window replays that charge", async () => {
    psp = await startFakePsp({ webhookSecret: "s" });
    armFault("psp_outage_ms", 300, 1);

    const refused = await charge(psp.url, "k0");
    const dropped = await settle(charge(psp.url, "k1"));
    const chargedDuring = psp.charges();
    await sleep(350);
    const after = await charge(psp.url, "k1");

    expect(refused.status).toBe(503);
    expect(dropped).toBe("dropped");
    expect(chargedDuring.map((c) => c.idempotency_key)).toEqual(["k1"]);
    expect(after.status).toBe(200);
    expect(after.headers["idempotent-replayed"]).toBe("true");
    expect(after.body.id).toBe(chargedDuring[0]?.id);
    expect(psp.charges()).toHaveLength(1);
  });

  it("answers lists and lookups 503 during the window and 200 after it, ending by itself", async () => {
    psp = await startFakePsp({ webhookSecret: "s" });
    armFault("psp_outage_ms", 300, 1);
    const lookups = ["/v1/charges?reference=r1", "/v1/refunds", "/v1/charges/ch_missing"];

    const during = await Promise.all(lookups.map((path) => call(psp?.url ?? "", "GET", path)));
    await sleep(350);
    const after = await Promise.all(lookups.map((path) => call(psp?.url ?? "", "GET", path)));

    expect(during.map((a) => a.status)).toEqual([503, 503, 503]);
    expect(after.map((a) => a.status)).toEqual([200, 200, 404]);
    expect(armedFaults().psp_outage_ms).toBeUndefined();
  });
});

describe("latency by distribution (psp_latency_p50_ms, psp_latency_p99_ms)", () => {
  it("draws delays whose median and p99 are near the armed p50 and p99", () => {
    const random = createRandom(42);

    const draws = Array.from({ length: 5000 }, () => sampleLatencyMs(100, 800, random)).sort((a, b) => a - b);

    expect(percentile(draws, 0.5)).toBeGreaterThan(90);
    expect(percentile(draws, 0.5)).toBeLessThan(110);
    expect(percentile(draws, 0.99)).toBeGreaterThan(650);
    expect(percentile(draws, 0.99)).toBeLessThan(950);
  });

  it("draws the same delays from the same seed, and a fixed p50 when no p99 is armed", () => {
    const a = createRandom(7);
    const b = createRandom(7);

    const first = Array.from({ length: 20 }, () => sampleLatencyMs(50, 400, a));
    const second = Array.from({ length: 20 }, () => sampleLatencyMs(50, 400, b));

    expect(second).toEqual(first);
    expect(sampleLatencyMs(50, undefined, a)).toBe(50);
  });

  it("delays a request by the p50, consumes the p50 per request and leaves the p99 armed", async () => {
    psp = await startFakePsp({ webhookSecret: "s" });
    armFault("psp_latency_p50_ms", 200, 1);
    armFault("psp_latency_p99_ms", 200, 1);

    const t0 = performance.now();
    await call(psp.url, "GET", "/v1/charges");
    const delayed = performance.now() - t0;
    const t1 = performance.now();
    await call(psp.url, "GET", "/v1/charges");
    const prompt = performance.now() - t1;

    expect(delayed).toBeGreaterThanOrEqual(190);
    expect(prompt).toBeLessThan(150);
    expect(armedFaults().psp_latency_p50_ms).toBeUndefined();
    expect(armedFaults().psp_latency_p99_ms).toEqual({ value: 200, remaining: 1 });
  });
});

/** Sends `n` charges one after another and says which lost their reply. */
async function lossPattern(url: string, n: number): Promise<boolean[]> {
  const lost: boolean[] = [];
  for (let i = 0; i < n; i++) lost.push((await settle(charge(url, `k${i}`))) === "dropped");
  return lost;
}

describe("replies lost by rate (psp_lose_reply_rate)", () => {
  it("with rate 1 runs every POST and drops every reply; the retries replay the charges", async () => {
    psp = await startFakePsp({ webhookSecret: "s" });
    armFault("psp_lose_reply_rate", 1, 3);

    const lost = await lossPattern(psp.url, 3);
    const retries = await Promise.all(["k0", "k1", "k2"].map((k) => charge(psp?.url ?? "", k)));

    expect(lost).toEqual([true, true, true]);
    expect(psp.charges()).toHaveLength(3);
    expect(retries.map((r) => r.headers["idempotent-replayed"])).toEqual(["true", "true", "true"]);
  });

  it("with rate 0 drops none", async () => {
    psp = await startFakePsp({ webhookSecret: "s" });
    armFault("psp_lose_reply_rate", 0, 3);

    expect(await lossPattern(psp.url, 3)).toEqual([false, false, false]);
  });

  it("with rate 0.5 drops some, in the same pattern for the same seed and another for another seed", async () => {
    const patterns: boolean[][] = [];
    for (const seed of [11, 11, 12]) {
      psp = await startFakePsp({ webhookSecret: "s", seed });
      armFault("psp_lose_reply_rate", 0.5, 20);
      patterns.push(await lossPattern(psp.url, 20));
      await psp.stop();
      psp = undefined;
    }

    const lostCount = patterns[0]?.filter(Boolean).length ?? 0;
    expect(patterns[1]).toEqual(patterns[0]);
    expect(patterns[2]).not.toEqual(patterns[0]);
    expect(lostCount).toBeGreaterThan(3);
    expect(lostCount).toBeLessThan(17);
  });

  it("refuses a rate outside 0..1 with a reason", () => {
    expect(() => parseFaultRequest({ psp_lose_reply_rate: 1.5 })).toThrow(/probability from 0 to 1/);
    expect(() => parseFaultRequest({ psp_lose_reply_rate: -0.1 })).toThrow(/probability from 0 to 1/);
    expect(() => parseFaultRequest({ psp_latency_p50_ms: 200, psp_latency_p99_ms: 100 })).toThrow(/below/);
  });
});
