import { armedFaults, clearFaults } from "@eo/core";
import { type FakePsp, type PspStats, startFakePsp } from "@eo/psp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pspRateLimitsFromEnv } from "../../packages/local/src/stack/psp-rate-limits";
import { pspLocalFront } from "../support/psp-local-front";

let psp: FakePsp;
let front: { base: string; stop: () => Promise<void> };
let base: string;

beforeAll(async () => {
  psp = await startFakePsp({ webhookSecret: "s" });
  front = await pspLocalFront(psp);
  base = front.base;
});
afterAll(async () => {
  clearFaults();
  await psp.stop();
  await front.stop();
});

describe("the fake PSP's local routes", () => {
  it("GET /_local/psp/stats serves the PSP's cumulative counters", async () => {
    await fetch(`${psp.url}/v1/charges`, { headers: { "User-Agent": "effectively-once (resolver)" } });

    const res = await fetch(`${base}/psp/stats`);
    const stats = (await res.json()) as PspStats;

    expect(res.status).toBe(200);
    expect(stats).toMatchObject({
      requests: 1,
      by_origin: { live: 0, resolver: 1, other: 0 },
      rate_limited: 0,
    });
    expect(stats.by_endpoint).toEqual({ "GET /v1/charges": 1 });
  });

  it("POST /_local/faults refuses a lose-reply rate above 1 with a problem, and arms nothing", async () => {
    const res = await fetch(`${base}/faults`, {
      method: "POST",
      body: JSON.stringify({ psp_outage_ms: 1000, psp_lose_reply_rate: 1.5 }),
    });
    const problem = (await res.json()) as { detail: string };

    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(problem.detail).toMatch(/psp_lose_reply_rate is a probability from 0 to 1/);
    expect(armedFaults()).toEqual({});
  });
});

describe("the fake PSP's rate limits from the environment (npm start)", () => {
  it("keeps Stripe's 100 and 25 per second when nothing is set", () => {
    expect(pspRateLimitsFromEnv({})).toEqual({ perAccount: 100, perEndpoint: 25 });
  });

  it("lifts or lowers them by FAKE_PSP_ACCOUNT_LIMIT_PER_S and FAKE_PSP_ENDPOINT_LIMIT_PER_S", () => {
    const env = { FAKE_PSP_ACCOUNT_LIMIT_PER_S: "1000", FAKE_PSP_ENDPOINT_LIMIT_PER_S: "2.5" };

    expect(pspRateLimitsFromEnv(env)).toEqual({ perAccount: 1000, perEndpoint: 2.5 });
  });

  it.each(["0", "-5", "fast", "Infinity"])(
    "refuses FAKE_PSP_ENDPOINT_LIMIT_PER_S=%s with a reason",
    (raw) => {
      expect(() => pspRateLimitsFromEnv({ FAKE_PSP_ENDPOINT_LIMIT_PER_S: raw })).toThrow(
        /FAKE_PSP_ENDPOINT_LIMIT_PER_S=.* must be a positive number of requests per second/,
      );
    },
  );
});
