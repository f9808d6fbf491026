import { manualClock } from "@eo/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type FakePsp,
  type PspEvent,
  startFakePsp,
  verifyWebhookSignature,
  type WebhookRetry,
} from "../src/index";
import { type ChargeJson, call, chargeBody } from "./http-client";
import { pause, startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver";

const SECRET = "whsec_test";
const FAST_RETRY: WebhookRetry = { baseMs: 20, maxMs: 200, maxAttempts: 10 };
let psp: FakePsp | undefined;
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  await psp?.stop();
  await receiver?.stop();
  psp = undefined;
  receiver = undefined;
});

async function setup(statuses: number[], retry = FAST_RETRY) {
  receiver = await startWebhookReceiver(statuses);
  const clock = manualClock(Date.UTC(2025, 0, 1));
  psp = await startFakePsp({ webhookSecret: SECRET, webhookUrl: receiver.url, webhookRetry: retry, clock });
  return { psp, receiver, clock };
}

const events = (r: WebhookReceiver) => r.received.map((w) => JSON.parse(w.rawBody) as PspEvent);

describe("webhooks", () => {
  it("go out a little after the reply when a first delay is set", async () => {
    const { psp, receiver } = await setup([], { ...FAST_RETRY, firstMs: 300 });

    await call(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });
    await pause(150);
    const early = receiver.received.length;
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 3000, interval: 10 });

    expect(early).toBe(0);
  });

  it("are retried until acknowledged, with the same event id and a valid signature each time", async () => {
    const { psp, receiver, clock } = await setup([500, 500, 200]);

    const charge = await call<ChargeJson>(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });
    await vi.waitFor(() => expect(receiver.received).toHaveLength(3), { timeout: 3000, interval: 10 });
    await pause(150);

    expect(receiver.received).toHaveLength(3);
    const ids = new Set(events(receiver).map((e) => e.id));
    expect(ids.size).toBe(1);
    expect(new Set(receiver.received.map((w) => w.rawBody)).size).toBe(1);
    for (const w of receiver.received) {
      const header = w.headers["psp-signature"] as string | undefined;
      expect(verifyWebhookSignature(SECRET, w.rawBody, header, clock.now())).toEqual({ ok: true });
      expect(w.headers["content-type"]).toBe("application/json");
    }
    expect(events(receiver)[0]).toMatchObject({
      type: "charge.succeeded",
      data: { charge: { id: charge.body.id, idempotency_key: "k1", reference: "pay_1", amount: 3000 } },
    });
    expect(psp.webhookDeliveries().map((d) => [d.attempt, d.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
  });

  it("are sent once for a charge however often its key is replayed", async () => {
    const { psp, receiver } = await setup([]);

    await call(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });
    await call(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 3000, interval: 10 });
    await pause(100);

    expect(receiver.received).toHaveLength(1);
  });

  it("report a decline as charge.failed", async () => {
    const { psp, receiver } = await setup([]);

    await call(psp.url, "POST", "/v1/charges", {
      key: "k1",
      json: chargeBody({ payment_method: "pm_card_declined" }),
    });
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 3000, interval: 10 });

    expect(events(receiver)[0]?.type).toBe("charge.failed");
  });

  it("give up after maxAttempts", async () => {
    const { psp, receiver } = await setup([500, 500, 500, 500], { baseMs: 10, maxMs: 20, maxAttempts: 3 });

    await call(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });
    await vi.waitFor(() => expect(receiver.received).toHaveLength(3), { timeout: 3000, interval: 10 });
    await pause(100);

    expect(receiver.received).toHaveLength(3);
  });

  it("stop retrying when the PSP stops", async () => {
    const { psp, receiver } = await setup(Array(50).fill(500), { baseMs: 30, maxMs: 30, maxAttempts: 50 });
    await call(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });
    await vi.waitFor(() => expect(receiver.received.length).toBeGreaterThanOrEqual(1), { timeout: 3000 });

    await psp.stop();
    const seenAtStop = receiver.received.length;
    await pause(150);

    expect(receiver.received.length).toBe(seenAtStop);
  });

  it("are not sent while no URL is set, and go to the URL set later", async () => {
    receiver = await startWebhookReceiver();
    psp = await startFakePsp({ webhookSecret: SECRET, webhookRetry: FAST_RETRY });
    await call(psp.url, "POST", "/v1/charges", { key: "before", json: chargeBody() });

    psp.setWebhookUrl(receiver.url);
    await call(psp.url, "POST", "/v1/charges", { key: "after", json: chargeBody() });
    const current = receiver;
    await vi.waitFor(() => expect(current.received).toHaveLength(1), { timeout: 3000, interval: 10 });
    await pause(50);

    expect(events(current).map((e) => e.data.charge.idempotency_key)).toEqual(["after"]);
  });
});
