import { performance } from "node:perf_hooks";
import { armFault, clearFaults, parseFaultRequest } from "@eo/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type FakePsp, type PspEvent, startFakePsp, type WebhookRetry } from "../src/index";
import { type ChargeJson, call, chargeBody } from "./http-client";
import { pause, startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver";

// A real PSP's events arrive a little after its reply; the faults move that first delivery or repeat it.
const FIRST_MS = 300;
const RETRY: WebhookRetry = { baseMs: 20, maxMs: 200, maxAttempts: 10, firstMs: FIRST_MS };
let psp: FakePsp | undefined;
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  clearFaults();
  await psp?.stop();
  await receiver?.stop();
  psp = undefined;
  receiver = undefined;
});

async function setup(statuses: number[] = []) {
  receiver = await startWebhookReceiver(statuses);
  psp = await startFakePsp({ webhookSecret: "whsec_test", webhookUrl: receiver.url, webhookRetry: RETRY });
  return { psp, receiver };
}

const pay = (p: FakePsp, reference: string) =>
  call<ChargeJson>(p.url, "POST", "/v1/charges", {
    key: `${reference}:charge`,
    json: chargeBody({ reference }),
  });
const events = (r: WebhookReceiver) => r.received.map((w) => JSON.parse(w.rawBody) as PspEvent);
const references = (r: WebhookReceiver) => events(r).map((e) => `${e.type} ${e.data.charge.reference}`);
const arrived = (r: WebhookReceiver, n: number) =>
  vi.waitFor(() => expect(r.received).toHaveLength(n), { timeout: 5000, interval: 5 });

describe("a webhook sent early (psp_webhook_early)", () => {
  it("goes out at once instead of after firstMs, for the next event only", async () => {
    const { psp, receiver } = await setup();
    armFault("psp_webhook_early", 1, 1);

    const t0 = performance.now();
    await pay(psp, "pay_early");
    await arrived(receiver, 1);
    const earlyAfterMs = performance.now() - t0;
    await pay(psp, "pay_usual");
    await pause(FIRST_MS / 2);
    const usualSeenSoon = receiver.received.length - 1;

    expect(earlyAfterMs).toBeLessThan(FIRST_MS);
    expect(usualSeenSoon).toBe(0);
    await arrived(receiver, 2);
  });
});

describe("a webhook sent late (psp_webhook_late_ms)", () => {
  it("waits the fault's delay, so the next event overtakes it", async () => {
    const { psp, receiver } = await setup();
    armFault("psp_webhook_late_ms", 1200, 1);

    await pay(psp, "pay_late");
    await pay(psp, "pay_next");
    await pause(800);
    const seenBeforeDelay = references(receiver);
    await arrived(receiver, 2);

    expect(seenBeforeDelay).toEqual(["charge.succeeded pay_next"]);
    expect(references(receiver)).toEqual(["charge.succeeded pay_next", "charge.succeeded pay_late"]);
  });
});

describe("a webhook sent twice (psp_webhook_twice)", () => {
  it("is two deliveries of the same event id and bytes, each retried until acknowledged", async () => {
    const { psp, receiver } = await setup([500, 500]);
    armFault("psp_webhook_twice", 1, 1);

    await pay(psp, "pay_twice");
    await arrived(receiver, 4);
    await pay(psp, "pay_once");
    await arrived(receiver, 5);
    await pause(150);

    expect(receiver.received).toHaveLength(5);
    const twice = receiver.received.filter((w) => w.rawBody.includes('"pay_twice"'));
    expect(twice).toHaveLength(4);
    expect(new Set(twice.map((w) => w.rawBody)).size).toBe(1);
    const [id] = psp.webhookEvents().map((e) => e.id);
    const acked = psp.webhookDeliveries().filter((d) => d.eventId === id && d.status === 200);
    expect(acked).toHaveLength(2);
    expect(psp.webhookEvents()).toHaveLength(2);
  });
});

describe("redelivery (redeliverWebhooks)", () => {
  it("sends a payment's older events again at once, after a newer one, with the same ids and bytes", async () => {
    const { psp, receiver } = await setup();
    const first = await pay(psp, "pay_a");
    await call(psp.url, "POST", "/v1/refunds", { key: "pay_a:refund", json: { charge: first.body.id } });
    await pay(psp, "pay_b");
    await arrived(receiver, 3);
    const original = receiver.received.map((w) => w.rawBody);

    const t0 = performance.now();
    const count = psp.redeliverWebhooks("pay_a");
    await arrived(receiver, 5);
    const redeliveredAfterMs = performance.now() - t0;

    expect(count).toBe(2);
    expect(redeliveredAfterMs).toBeLessThan(FIRST_MS);
    expect(references(receiver).slice(3)).toEqual(["charge.succeeded pay_a", "refund.succeeded pay_a"]);
    const byRef = (ref: string) => original.filter((b) => b.includes(`"${ref}"`));
    expect(receiver.received.slice(3).map((w) => w.rawBody)).toEqual(byRef("pay_a"));
    expect(psp.redeliverWebhooks("pay_unknown")).toBe(0);
  });

  it("sends every kept event when no reference is given, and hands out copies of them", async () => {
    const { psp, receiver } = await setup();
    await pay(psp, "pay_a");
    await pay(psp, "pay_b");
    await arrived(receiver, 2);

    const count = psp.redeliverWebhooks();
    await arrived(receiver, 4);
    const kept = psp.webhookEvents();
    (kept[0] as PspEvent).id = "evt_tampered";

    expect(count).toBe(2);
    expect(references(receiver)).toEqual([
      "charge.succeeded pay_a",
      "charge.succeeded pay_b",
      "charge.succeeded pay_a",
      "charge.succeeded pay_b",
    ]);
    expect(psp.webhookEvents().map((e) => e.id)).toEqual(
      events(receiver)
        .slice(0, 2)
        .map((e) => e.id),
    );
  });
});

describe("the webhook faults in POST /_local/faults (parseFaultRequest)", () => {
  it("knows the three names, with the late delay valued and the others counted", () => {
    expect(parseFaultRequest({ psp_webhook_late_ms: 500, n: 2 })).toEqual([
      { name: "psp_webhook_late_ms", value: 500, n: 2 },
    ]);
    expect(parseFaultRequest({ psp_webhook_early: 1 })).toEqual([
      { name: "psp_webhook_early", value: 1, n: 1 },
    ]);
    expect(parseFaultRequest({ psp_webhook_twice: 3 })).toEqual([
      { name: "psp_webhook_twice", value: 3, n: 3 },
    ]);
  });
});
