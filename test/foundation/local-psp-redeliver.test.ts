import { type FakePsp, type PspEvent, startFakePsp } from "@eo/psp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { call, chargeBody } from "../../packages/psp/test/http-client";
import { startWebhookReceiver, type WebhookReceiver } from "../../packages/psp/test/webhook-receiver";
import { pspLocalFront } from "../support/psp-local-front";

let psp: FakePsp;
let receiver: WebhookReceiver;
let front: { base: string; stop: () => Promise<void> };
let base: string;

// The route over a real HTTP front, a real fake PSP and a real webhook endpoint, without the emulators it does not read.
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  psp = await startFakePsp({ webhookSecret: "s", webhookUrl: receiver.url });
  front = await pspLocalFront(psp);
  base = front.base;
});
afterAll(async () => {
  await psp.stop();
  await receiver.stop();
  await front.stop();
});

const redeliver = (body: string) => fetch(`${base}/psp/redeliver`, { method: "POST", body });
const references = () =>
  receiver.received.map((w) => (JSON.parse(w.rawBody) as PspEvent).data.charge.reference);

describe("POST /_local/psp/redeliver", () => {
  it("sends a payment's events again, after newer ones, and says how many", async () => {
    for (const reference of ["pay_a", "pay_b"])
      await call(psp.url, "POST", "/v1/charges", { key: reference, json: chargeBody({ reference }) });
    await vi.waitFor(() => expect(receiver.received).toHaveLength(2), { timeout: 3000, interval: 10 });

    const one = await redeliver(JSON.stringify({ reference: "pay_a" }));
    const oneBody = await one.json();
    await vi.waitFor(() => expect(receiver.received).toHaveLength(3), { timeout: 3000, interval: 10 });
    const all = await (await redeliver("")).json();
    await vi.waitFor(() => expect(receiver.received).toHaveLength(5), { timeout: 3000, interval: 10 });
    await vi.waitFor(() => expect(psp.webhooksPending()).toBe(0), { timeout: 3000, interval: 10 });

    expect(one.status).toBe(200);
    expect(oneBody).toEqual({ redelivered: 1 });
    expect(all).toEqual({ redelivered: 2 });
    expect(references().slice(2)).toEqual(["pay_a", "pay_a", "pay_b"]);
  });

  it.each([
    ["[]", /must be a JSON object/],
    ['"pay_a"', /must be a JSON object/],
    ["null", /must be a JSON object/],
    ["{not json", /must be JSON/],
    ['{"reference": ""}', /reference must be a non-empty string/],
    ['{"reference": 7}', /reference must be a non-empty string \(a payment id\), not 7/],
  ])("refuses the body %s with a problem, and sends nothing", async (body, detail) => {
    const before = receiver.received.length;

    const res = await redeliver(body);
    const problem = (await res.json()) as { detail: string };

    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(problem.detail).toMatch(detail);
    expect(psp.webhooksPending()).toBe(0);
    expect(receiver.received).toHaveLength(before);
  });
});
