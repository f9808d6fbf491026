import { describe, expect, it } from "vitest";
import { clock } from "../../packages/core/src/clock/clock";
import {
  CLIENT_TIMEOUT_MS,
  loadTunables,
  MAX_WAIT_BEFORE_STAMP_MS,
} from "../../packages/core/src/config/config";
import { mintToken } from "../../packages/local/src/runtime/jwt";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";
import { snapshotTables } from "../support/tables";

const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);

describe("Formula 2: the deadline ends before the phone gives up", () => {
  it("holds for the shipped defaults: server deadline + longest wait before the stamp < client timeout", () => {
    const shipped = loadTunables({});
    expect(shipped.deadlineMs + MAX_WAIT_BEFORE_STAMP_MS).toBeLessThan(CLIENT_TIMEOUT_MS);
    expect(shipped.deadlineMs).toBe(5_000);
  });
});

describe("the late original (Part 4)", () => {
  it("gets 409 key-voided after resolve voided its key, while the key record lives and after its hour", async () => {
    // prepare
    const token = await api().token("u1");
    const k1 = newKey();
    const resolved = await api().resolve(token, k1);
    const pspCalls = stack().psp.requests();
    // act
    const withinHour = await api().pay(token, k1, order42());
    await api().local("POST", "/clock", { advance_s: 3_700 });
    const afterHour = await api().pay(token, k1, order42());
    // assess
    expect(resolved.body).toEqual({ state: "VOID" });
    for (const late of [withinHour, afterHour]) {
      expect(late.status).toBe(409);
      expect(String(late.body.type)).toMatch(/\/key-voided$/);
    }
    expect(stack().psp.requests()).toBe(pspCalls);
    expect(await tablesOf(stack()).payment(`${withinHour.body.payment_id ?? ""}`)).toBeUndefined();
  });

  it("resolve of a key that went through reports its state and voids nothing", async () => {
    const token = await api().token("u1");
    const key = newKey();
    const paid = await api().pay(token, key, order42());
    const resolved = await api().resolve(token, key);
    const again = await api().pay(token, key, order42());
    expect(resolved.body).toEqual({ state: "SUCCEEDED", payment_id: paid.body.payment_id });
    expect(again.status).toBe(201);
  });

  it("runs nothing for a request older than the deadline on arrival: 503 and no write", async () => {
    // prepare: the same handler module Lambda runs, given an arrival stamp 6 s old
    const { handler } = await import("../../packages/functions/src/http/create-payment");
    const before = await snapshotTables(stack());
    const pspCalls = stack().psp.requests();
    const event = {
      headers: { "idempotency-key": newKey(), "content-type": "application/json" },
      body: JSON.stringify(order42()),
      isBase64Encoded: false,
      rawPath: "/payments",
      requestContext: { timeEpoch: clock.now() - 6_000, authorizer: { jwt: { claims: { sub: "u1" } } } },
    };
    // act
    const reply = (await handler(event as never, { getRemainingTimeInMillis: () => 29_000 } as never)) as {
      statusCode: number;
      body: string;
    };
    // assess
    expect(reply.statusCode).toBe(503);
    expect(JSON.parse(reply.body).detail).toMatch(/deadline/);
    expect(await snapshotTables(stack())).toEqual(before);
    expect(stack().psp.requests()).toBe(pspCalls);
  });

  it("at the deadline mid-request starts nothing new: UNKNOWN, a pointer and 202", async () => {
    // prepare
    stack().psp.setWebhookUrl(undefined);
    const token = await mintToken("u1");
    const key = newKey();
    await api().local("POST", "/faults", { psp_delay_ms: 12_000, n: 1 });
    const started = Date.now();
    // act
    const reply = await api().pay(token, key, order42());
    // assess
    const elapsed = Date.now() - started;
    expect(reply.status).toBe(202);
    expect(reply.body.state).toBe("PROCESSING");
    expect(elapsed).toBeLessThan(6_000);
    const t = tablesOf(stack());
    expect((await t.payment(String(reply.body.payment_id)))?.state).toBe("UNKNOWN");
    expect((await t.claim(`payments:u1:${key}`))?.data).toEqual({
      kind: "pointer",
      payment_id: reply.body.payment_id,
    });
  }, 20_000);
});
