import { armFault, clearFaults } from "@eo/core";
import { afterEach, describe, expect, it } from "vitest";
import { type FakePsp, startFakePsp } from "../src/index";
import { call, chargeBody, type ErrorJson } from "./http-client";

let psp: FakePsp | undefined;

afterEach(async () => {
  clearFaults();
  await psp?.stop();
  psp = undefined;
});

describe("the psp_rate_limit fault", () => {
  it("answers one 429 with Retry-After, charges nothing and saves nothing: the same key then runs once", async () => {
    // prepare
    psp = await startFakePsp({ webhookSecret: "s" });
    armFault("psp_rate_limit", 1, 1);
    // act
    const limited = await call<ErrorJson>(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });
    const chargesAfterLimit = psp.charges().length;
    const retry = await call(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });
    // assess
    expect(limited.status).toBe(429);
    expect(limited.headers["retry-after"]).toBe("1");
    expect(limited.body.error.type).toBe("rate_limit_error");
    expect(chargesAfterLimit).toBe(0);
    expect(retry.status).toBe(200);
    expect(retry.headers["idempotent-replayed"]).toBeUndefined();
    expect(psp.charges()).toHaveLength(1);
  });
});
