import { armFault, clearFaults, manualClock } from "@eo/core";
import { afterEach, describe, expect, it } from "vitest";
import { type FakePsp, startFakePsp } from "../src/index";
import { type ChargeJson, call, chargeBody, type ErrorJson } from "./http-client";

const SECRET = "whsec_test";
let psp: FakePsp | undefined;

async function start(clock = manualClock(Date.UTC(2025, 0, 1))) {
  psp = await startFakePsp({ webhookSecret: SECRET, clock });
  return { psp, clock };
}

afterEach(async () => {
  clearFaults();
  await psp?.stop();
  psp = undefined;
});

describe("POST /v1/charges with an Idempotency-Key", () => {
  it("replays the saved charge when the same key comes with the same parameters", async () => {
    const { psp } = await start();

    const first = await call<ChargeJson>(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });
    const second = await call<ChargeJson>(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });

    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      object: "charge",
      status: "succeeded",
      amount: 3000,
      refunded: false,
    });
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    expect(second.status).toBe(200);
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(psp.charges()).toEqual([
      {
        id: first.body.id,
        idempotency_key: "k1",
        reference: "pay_1",
        amount: 3000,
        currency: "USD",
        refunded: false,
      },
    ]);
  });

  it("treats a form-encoded repeat of a JSON charge as the same request", async () => {
    const { psp } = await start();
    const form = { amount: "3000", currency: "USD", payment_method: "pm_1", reference: "pay_1" };

    const first = await call<ChargeJson>(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });
    const second = await call<ChargeJson>(psp.url, "POST", "/v1/charges", { key: "k1", form });

    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(second.body.id).toBe(first.body.id);
  });

  it("refuses the same key with other parameters with idempotency_error and charges nothing more", async () => {
    const { psp } = await start();
    await call(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });

    const other = await call<ErrorJson>(psp.url, "POST", "/v1/charges", {
      key: "k1",
      json: chargeBody({ amount: 3001 }),
    });

    expect(other.status).toBe(400);
    expect(other.body.error.type).toBe("idempotency_error");
    expect(psp.charges()).toHaveLength(1);
  });

  it("saves an injected 500 and replays it on the repeat, charging nothing", async () => {
    const { psp } = await start();
    armFault("psp_fail", 500, 1);

    const first = await call<ErrorJson>(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });
    const repeat = await call<ErrorJson>(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });

    expect(first.status).toBe(500);
    expect(first.body.error.type).toBe("api_error");
    expect(repeat.status).toBe(500);
    expect(repeat.headers["idempotent-replayed"]).toBe("true");
    expect(repeat.body).toEqual(first.body);
    expect(psp.charges()).toEqual([]);
  });

  it("treats a key older than 24 h by its clock as new", async () => {
    const { psp, clock } = await start();
    const first = await call<ChargeJson>(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });

    clock.advance(24 * 60 * 60 * 1000 + 1000);
    const later = await call<ChargeJson>(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });

    expect(later.status).toBe(200);
    expect(later.headers["idempotent-replayed"]).toBeUndefined();
    expect(later.body.id).not.toBe(first.body.id);
    expect(psp.charges()).toHaveLength(2);
  });

  it("still replays a key just inside the 24 h window", async () => {
    const { psp, clock } = await start();
    const first = await call<ChargeJson>(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });

    clock.advance(24 * 60 * 60 * 1000 - 1000);
    const later = await call<ChargeJson>(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });

    expect(later.body.id).toBe(first.body.id);
    expect(psp.charges()).toHaveLength(1);
  });

  it("declines the declined test card with 402, saves the decline and lists only succeeded charges", async () => {
    const { psp } = await start();
    const declined = chargeBody({ payment_method: "pm_card_declined" });

    const first = await call<ErrorJson>(psp.url, "POST", "/v1/charges", { key: "k1", json: declined });
    const repeat = await call<ErrorJson>(psp.url, "POST", "/v1/charges", { key: "k1", json: declined });

    expect(first.status).toBe(402);
    expect(first.body.error).toMatchObject({
      type: "card_error",
      code: "card_declined",
      decline_code: "generic_decline",
    });
    expect(first.body.error.charge).toMatch(/^ch_/);
    expect(repeat.status).toBe(402);
    expect(repeat.body).toEqual(first.body);
    expect(psp.charges()).toEqual([]);
  });
});

describe("POST /v1/charges validation", () => {
  it("answers 400 without a key and saves nothing", async () => {
    const { psp } = await start();

    const answer = await call<ErrorJson>(psp.url, "POST", "/v1/charges", { json: chargeBody() });

    expect(answer.status).toBe(400);
    expect(answer.body.error.type).toBe("invalid_request_error");
    expect(psp.charges()).toEqual([]);
  });

  it.each([
    ["a zero amount", { amount: 0 }],
    ["a fractional amount", { amount: 10.5 }],
    ["a four-letter currency", { currency: "USDX" }],
    ["a numeric payment method", { payment_method: 7 }],
    ["a missing reference", { reference: undefined }],
  ])(
    "answers 400 invalid_request_error for %s, and a corrected retry with the key then charges",
    async (_, over) => {
      const { psp } = await start();

      const bad = await call<ErrorJson>(psp.url, "POST", "/v1/charges", {
        key: "k1",
        json: chargeBody(over),
      });
      const good = await call<ChargeJson>(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });

      expect(bad.status).toBe(400);
      expect(bad.body.error.type).toBe("invalid_request_error");
      expect(good.status).toBe(200);
      expect(psp.charges()).toHaveLength(1);
    },
  );
});

describe("GET /v1/charges", () => {
  it("lists the account's charges with a reference, declined ones included", async () => {
    const { psp } = await start();
    await call(psp.url, "POST", "/v1/charges", { key: "a", json: chargeBody({ reference: "pay_a" }) });
    await call(psp.url, "POST", "/v1/charges", { key: "b", json: chargeBody({ reference: "pay_b" }) });
    const decline = chargeBody({ reference: "pay_a", payment_method: "pm_card_declined" });
    await call(psp.url, "POST", "/v1/charges", { key: "c", json: decline });

    const list = await call<{ object: string; data: ChargeJson[] }>(
      psp.url,
      "GET",
      "/v1/charges?reference=pay_a",
    );
    const elsewhere = await call<{ data: ChargeJson[] }>(psp.url, "GET", "/v1/charges?reference=pay_a", {
      account: "sk_other",
    });

    expect(list.status).toBe(200);
    expect(list.body.object).toBe("list");
    expect(list.body.data.map((c) => [c.idempotency_key, c.status])).toEqual([
      ["a", "succeeded"],
      ["c", "failed"],
    ]);
    expect(elsewhere.body.data).toEqual([]);
  });

  it("lists only charges created in the range, by created[gte] and created[lte], and refuses a bad bound", async () => {
    // prepare: charges at t0, t0 + 1 h and t0 + 2 h on the PSP's clock
    const { psp, clock } = await start();
    const t0 = Math.floor(clock.now() / 1000);
    for (const key of ["early", "middle", "late"]) {
      await call(psp.url, "POST", "/v1/charges", { key, json: chargeBody({ reference: `pay_${key}` }) });
      clock.advance(3_600_000);
    }
    // act
    const middle = await call<{ data: ChargeJson[] }>(
      psp.url,
      "GET",
      `/v1/charges?created[gte]=${t0 + 1_800}&created[lte]=${t0 + 5_400}`,
    );
    const fromMiddle = await call<{ data: ChargeJson[] }>(
      psp.url,
      "GET",
      `/v1/charges?created[gte]=${t0 + 3_600}`,
    );
    const bad = await call<ErrorJson>(psp.url, "GET", "/v1/charges?created[gte]=yesterday");
    // assess
    expect(middle.body.data.map((c) => c.idempotency_key)).toEqual(["middle"]);
    expect(fromMiddle.body.data.map((c) => c.idempotency_key)).toEqual(["middle", "late"]);
    expect(bad.status).toBe(400);
  });

  it("answers an unknown route with a 404 JSON error", async () => {
    const { psp } = await start();

    const answer = await call<ErrorJson>(psp.url, "GET", "/v1/nothing");

    expect(answer.status).toBe(404);
    expect(answer.body.error.type).toBe("invalid_request_error");
  });
});
