import { afterEach, describe, expect, it, vi } from "vitest";
import { type FakePsp, type PspEvent, startFakePsp } from "../src/index";
import { type ChargeJson, call, chargeBody, type ErrorJson } from "./http-client";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver";

let psp: FakePsp | undefined;
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  await psp?.stop();
  await receiver?.stop();
  psp = undefined;
  receiver = undefined;
});

async function charged(psp: FakePsp): Promise<ChargeJson> {
  const answer = await call<ChargeJson>(psp.url, "POST", "/v1/charges", {
    key: "pay_1:charge",
    json: chargeBody(),
  });
  return answer.body;
}

interface RefundJson {
  id: string;
  charge: string;
  status: string;
  idempotency_key: string;
}

describe("POST /v1/refunds", () => {
  it("refunds once when the same key is sent twice, and marks the charge refunded", async () => {
    psp = await startFakePsp({ webhookSecret: "s" });
    const charge = await charged(psp);
    const request = { key: "pay_1:cancel:refund", json: { charge: charge.id } };

    const first = await call<RefundJson>(psp.url, "POST", "/v1/refunds", request);
    const repeat = await call<RefundJson>(psp.url, "POST", "/v1/refunds", request);

    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      charge: charge.id,
      status: "succeeded",
      idempotency_key: request.key,
    });
    expect(first.body.id).toMatch(/^re_/);
    expect(repeat.headers["idempotent-replayed"]).toBe("true");
    expect(repeat.body).toEqual(first.body);
    expect(psp.refunds()).toEqual([{ id: first.body.id, charge: charge.id, idempotency_key: request.key }]);
    expect(psp.charges()[0]?.refunded).toBe(true);
  });

  it("answers 404 for an unknown charge and replays that 404 even once the charge exists elsewhere", async () => {
    psp = await startFakePsp({ webhookSecret: "s" });

    const first = await call<ErrorJson>(psp.url, "POST", "/v1/refunds", {
      key: "r1",
      json: { charge: "ch_nope" },
    });
    const repeat = await call<ErrorJson>(psp.url, "POST", "/v1/refunds", {
      key: "r1",
      json: { charge: "ch_nope" },
    });

    expect(first.status).toBe(404);
    expect(first.body.error.code).toBe("resource_missing");
    expect(repeat.status).toBe(404);
    expect(repeat.headers["idempotent-replayed"]).toBe("true");
    expect(psp.refunds()).toEqual([]);
  });

  it("refuses a second refund of the same charge under another key", async () => {
    psp = await startFakePsp({ webhookSecret: "s" });
    const charge = await charged(psp);
    await call(psp.url, "POST", "/v1/refunds", { key: "r1", json: { charge: charge.id } });

    const again = await call<ErrorJson>(psp.url, "POST", "/v1/refunds", {
      key: "r2",
      json: { charge: charge.id },
    });

    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("charge_already_refunded");
    expect(psp.refunds()).toHaveLength(1);
  });

  it("sends refund.succeeded with the refunded charge as data.charge", async () => {
    receiver = await startWebhookReceiver();
    psp = await startFakePsp({ webhookSecret: "s", webhookUrl: receiver.url });
    const charge = await charged(psp);

    await call(psp.url, "POST", "/v1/refunds", { key: "r1", json: { charge: charge.id } });
    const current = receiver;
    await vi.waitFor(() => expect(current.received).toHaveLength(2), { timeout: 3000, interval: 10 });

    const refundEvent = current.received
      .map((w) => JSON.parse(w.rawBody) as PspEvent)
      .find((e) => e.type === "refund.succeeded");
    expect(refundEvent?.data.charge).toMatchObject({ id: charge.id, idempotency_key: "pay_1:charge" });
  });
});
