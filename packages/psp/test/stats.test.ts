import { armFault, clearFaults } from "@eo/core";
import { afterEach, describe, expect, it } from "vitest";
import { type FakePsp, originOf, startFakePsp } from "../src/index";
import { call, chargeBody } from "./http-client";

let psp: FakePsp | undefined;

afterEach(async () => {
  clearFaults();
  await psp?.stop();
  psp = undefined;
});

const LIVE = "effectively-once (live)";
const RESOLVER = "effectively-once (resolver)";

describe("the PSP's stats for a load generator", () => {
  it("tells the origin by the text in parentheses of the User-Agent", () => {
    expect(originOf(LIVE)).toBe("live");
    expect(originOf(RESOLVER)).toBe("resolver");
    expect(originOf("curl/8.5.0")).toBe("other");
    expect(originOf(undefined)).toBe("other");
  });

  it("counts requests by endpoint, origin and status, and the 429s by origin", async () => {
    psp = await startFakePsp({ webhookSecret: "s", rateLimits: { perAccount: 100, perEndpoint: 1 } });
    const url = psp.url;

    await call(url, "POST", "/v1/charges", { key: "a", json: chargeBody(), userAgent: LIVE });
    await call(url, "POST", "/v1/charges", { key: "b", json: chargeBody(), userAgent: LIVE });
    await call(url, "POST", "/v1/charges", { key: "c", json: chargeBody(), userAgent: RESOLVER });
    await call(url, "GET", "/v1/charges?reference=pay_1", { userAgent: RESOLVER });
    await call(url, "GET", "/v1/charges/ch_1");
    const stats = psp.stats();

    expect(stats.requests).toBe(5);
    expect(stats.by_endpoint).toEqual({
      "POST /v1/charges": 3,
      "GET /v1/charges": 1,
      "GET /v1/charges/{id}": 1,
    });
    expect(stats.by_origin).toEqual({ live: 2, resolver: 2, other: 1 });
    expect(stats.rate_limited).toBe(2);
    expect(stats.by_origin_rate_limited).toEqual({ live: 1, resolver: 1, other: 0 });
    expect(stats.by_status).toEqual({ "200": 2, "429": 2, "404": 1 });
  });

  it("counts the outage's refusals and the replies it dropped", async () => {
    psp = await startFakePsp({ webhookSecret: "s" });
    armFault("psp_outage_ms", 10_000, 1);
    const url = psp.url;

    await call(url, "POST", "/v1/charges", { key: "a", json: chargeBody() });
    await call(url, "POST", "/v1/charges", { key: "b", json: chargeBody() }).catch(() => undefined);
    await call(url, "GET", "/v1/charges");
    const stats = psp.stats();

    expect(stats.outage_refused).toBe(2);
    expect(stats.replies_dropped).toBe(1);
    expect(stats.by_status).toEqual({ "503": 2 });
  });
});
