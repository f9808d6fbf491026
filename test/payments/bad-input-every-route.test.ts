import { describe, expect, it } from "vitest";
import { clock } from "../../packages/core/src/clock/clock";
import { signWebhook } from "../../packages/core/src/psp/webhook-signature";
import { ApiClient } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";
import { snapshotTables } from "../support/tables";

const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);
const long = `pay_${"a".repeat(2_096)}`;

/** Sends a request and asserts a problem+json with the status and that no table changed. */
async function refusedWithoutWrites(
  send: () => Promise<{ status: number; headers: Headers; body: Record<string, unknown> }>,
  status: number,
) {
  const before = await snapshotTables(stack());
  const reply = await send();
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.headers.get("content-type")).toContain("application/problem+json");
  expect(String(reply.body.detail ?? "")).not.toBe("");
  expect(await snapshotTables(stack())).toEqual(before);
  return reply;
}

describe("bad input on every route answers a problem and writes nothing", () => {
  it.each([
    ["a 2,100-character id", long, 400],
    ["an id of another shape", "pay_ZZ..%2F..", 400],
    ["a well-formed id nobody owns", `pay_${"0".repeat(32)}`, 404],
  ])("POST /payments/{id}/cancel with %s", async (_what, id, status) => {
    const token = await api().token("u1");
    await refusedWithoutWrites(() => api().cancel(token, id), status);
  });

  it.each([
    ["a 2,100-character id", long, 400],
    ["a well-formed id nobody owns", `pay_${"f".repeat(32)}`, 404],
  ])("GET /payments/{id} with %s", async (_what, id, status) => {
    const token = await api().token("u1");
    const reply = await refusedWithoutWrites(() => api().get(token, id), status);
    if (status === 400) expect(String(reply.body.detail)).toMatch(/32 lowercase hex digits/);
  });

  it.each([
    ["no Idempotency-Key", undefined],
    ["a 256-character key", "k".repeat(256)],
    ["a key with a space", "two words"],
  ])("POST /payments/resolve with %s: 400", async (_what, key) => {
    const token = await api().token("u1");
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (key !== undefined) headers["idempotency-key"] = key;
    await refusedWithoutWrites(() => api().send("POST", "/payments/resolve", headers), 400);
  });
});

describe("webhooks with odd but signed bodies", () => {
  const signed = (body: string) => ({
    "psp-signature": signWebhook("whsec_local", body, Math.floor(clock.now() / 1000)),
    "content-type": "application/json",
  });
  const charge = { id: "ch_1", idempotency_key: "pay_x:charge", reference: "pay_x" };

  it.each([
    ["not JSON", "evt_1 charge.succeeded", 400],
    ["a JSON array", "[]", 400],
    ["an empty object", "{}", 400],
    ["an unknown type", JSON.stringify({ id: "evt_2", type: "charge.exploded", data: { charge } }), 400],
    ["no data.charge", JSON.stringify({ id: "evt_3", type: "charge.succeeded", data: {} }), 400],
    [
      "a 300-character event id",
      JSON.stringify({ id: "e".repeat(300), type: "charge.failed", data: { charge } }),
      400,
    ],
    [
      "a 70 KiB body",
      JSON.stringify({ id: "evt_4", type: "charge.failed", data: { charge }, pad: "x".repeat(70_000) }),
      413,
    ],
  ])("%s: %i", async (_what, body, status) => {
    await refusedWithoutWrites(() => api().send("POST", "/webhooks/psp", signed(body), body), status);
  });

  it("an event about no payment of ours: 200 so the PSP stops retrying, and nothing is written", async () => {
    const body = JSON.stringify({ id: "evt_5", type: "charge.succeeded", data: { charge } });
    const before = await snapshotTables(stack());
    const reply = await api().send("POST", "/webhooks/psp", signed(body), body);
    expect(reply.status).toBe(200);
    expect(reply.body.unknownPayment).toBe(true);
    expect(await snapshotTables(stack())).toEqual(before);
  });
});
