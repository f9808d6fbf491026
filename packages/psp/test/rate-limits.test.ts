import { afterEach, describe, expect, it } from "vitest";
import { type FakePsp, startFakePsp } from "../src/index";
import { type Answer, call, chargeBody, type ErrorJson } from "./http-client";

let psp: FakePsp | undefined;

afterEach(async () => {
  await psp?.stop();
  psp = undefined;
});

function chargesWithKeys(url: string, keys: string[]): Promise<Answer<ErrorJson>[]> {
  return Promise.all(
    keys.map((key) => call<ErrorJson>(url, "POST", "/v1/charges", { key, json: chargeBody() })),
  );
}

describe("rate limits", () => {
  it("answers 429 with Retry-After beyond 25 requests a second to one endpoint, and charges none of them", async () => {
    psp = await startFakePsp({ webhookSecret: "s" });
    const keys = Array.from({ length: 26 }, (_, i) => `burst-${i}`);

    const answers = await chargesWithKeys(psp.url, keys);

    const limited = answers.flatMap((a, i) => (a.status === 429 ? [keys[i]] : []));
    const served = answers.flatMap((a, i) => (a.status === 200 ? [keys[i]] : []));
    expect(limited.length).toBeGreaterThanOrEqual(1);
    expect(served.length).toBeLessThanOrEqual(25);
    expect(served.length + limited.length).toBe(26);
    for (const a of answers.filter((x) => x.status === 429)) {
      expect(a.headers["retry-after"]).toBe("1");
      expect(a.body.error.type).toBe("rate_limit_error");
    }
    const charged = psp.charges().map((c) => c.idempotency_key);
    expect(charged.sort()).toEqual([...served].sort());
  });

  it("does not save a 429 under its key: the retry after the window runs the charge", async () => {
    psp = await startFakePsp({ webhookSecret: "s", rateLimits: { perAccount: 100, perEndpoint: 1 } });
    await call(psp.url, "POST", "/v1/charges", { key: "first", json: chargeBody() });
    const limited = await call(psp.url, "POST", "/v1/charges", { key: "second", json: chargeBody() });

    await new Promise((resolve) => setTimeout(resolve, 1050));
    const retry = await call(psp.url, "POST", "/v1/charges", { key: "second", json: chargeBody() });

    expect(limited.status).toBe(429);
    expect(retry.status).toBe(200);
    expect(retry.headers["idempotent-replayed"]).toBeUndefined();
    expect(psp.charges()).toHaveLength(2);
  });

  it("answers 429 beyond 100 requests a second per account across endpoints, but not to another account", async () => {
    psp = await startFakePsp({ webhookSecret: "s", rateLimits: { perAccount: 100, perEndpoint: 1000 } });
    const url = psp.url;
    const requests = Array.from({ length: 101 }, (_, i) =>
      i % 2 === 0
        ? call(url, "POST", "/v1/charges", { key: `acct-${i}`, account: "sk_busy", json: chargeBody() })
        : call(url, "GET", `/v1/charges?reference=r${i}`, { account: "sk_busy" }),
    );

    const answers = await Promise.all(requests);
    const other = await call(url, "GET", "/v1/charges?reference=x", { account: "sk_quiet" });

    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(1);
    expect(other.status).toBe(200);
    expect(psp.requests()).toBe(102);
  });
});
