import type { PspEvent } from "@eo/contract";
import { describe, expect, it } from "vitest";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";
import { deliverPspEvent } from "../support/psp-webhook";

const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);
const chargesFor = (paymentId: unknown) =>
  stack()
    .psp.charges()
    .filter((c) => c.reference === paymentId);

/** Taps once with the PSP's reply lost; webhooks off so that the resolver is what settles it. */
async function tapWithLostReply(webhooks: boolean) {
  stack().psp.setWebhookUrl(webhooks ? `${stack().apiUrl}${stack().webhookPath}` : undefined);
  const token = await api().token("u1");
  const key = newKey();
  await api().local("POST", "/faults", { psp_lose_reply: 1 });
  const first = await api().pay(token, key, order42());
  return { token, key, first, paymentId: String(first.body.payment_id) };
}

describe("lost PSP reply (P1, P2)", () => {
  it("answers 202, then PROCESSING from the payment at 10 s, then 201 replayed after the resolver; one charge", async () => {
    // prepare
    const { token, key, first, paymentId } = await tapWithLostReply(false);
    // act
    await api().local("POST", "/clock", { advance_s: 10 });
    const retryAt10 = await api().pay(token, key, order42());
    const resolver = await api().local("POST", "/run/resolver");
    const retryAfterResolver = await api().pay(token, key, order42());
    // assess
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ payment_id: paymentId, state: "PROCESSING" });
    expect(first.headers.get("retry-after")).toBeTruthy();
    expect(retryAt10.status).toBe(202);
    expect(retryAt10.body.state).toBe("PROCESSING");
    expect((resolver.body.result as { settled: unknown[] }).settled).toContainEqual({
      payment_id: paymentId,
      from: "UNKNOWN",
      to: "SUCCEEDED",
    });
    expect(retryAfterResolver.status).toBe(201);
    expect(retryAfterResolver.headers.get("idempotent-replayed")).toBe("true");
    expect(retryAfterResolver.body).toMatchObject({
      payment_id: paymentId,
      state: "SUCCEEDED",
      amount: 3000,
    });
    expect(chargesFor(paymentId)).toHaveLength(1);
    expect(retryAfterResolver.body.psp_charge).toBe(chargesFor(paymentId)[0]?.id);
    // Each send recorded on the row before it went (issue 39): the guard's, then the resolver's replay.
    const sends = (await tablesOf(stack()).payment(paymentId))?.psp_sends ?? [];
    expect(sends).toHaveLength(2);
    expect(sends[1]).toBeGreaterThanOrEqual((sends[0] ?? 0) + 10_000);
  });

  it("stores a pointer while unknown and the resolver rewrites it to the final answer", async () => {
    const { key, paymentId } = await tapWithLostReply(false);
    const scope = `payments:u1:${key}`;
    const before = await tablesOf(stack()).claim(scope);
    await api().local("POST", "/run/resolver");
    const after = await tablesOf(stack()).claim(scope);
    expect(before?.data).toEqual({ kind: "pointer", payment_id: paymentId });
    expect(after?.data).toMatchObject({ kind: "final", status: 201 });
  });
});

describe("the webhook and the resolver race", () => {
  it("webhook first, then the resolver: one SUCCEEDED, one journal pair, resolver finds nothing", async () => {
    // prepare
    const { paymentId } = await tapWithLostReply(true);
    const t = tablesOf(stack());
    // act
    for (let i = 0; i < 200 && (await t.payment(paymentId))?.state !== "SUCCEEDED"; i++)
      await new Promise((r) => setTimeout(r, 50));
    const resolver = await api().local("POST", "/run/resolver");
    // assess
    expect((await t.payment(paymentId))?.state).toBe("SUCCEEDED");
    expect(
      (resolver.body.result as { settled: Array<{ payment_id: string }> }).settled.map((s) => s.payment_id),
    ).not.toContain(paymentId);
    expect(await t.journal(paymentId)).toHaveLength(2);
    expect(chargesFor(paymentId)).toHaveLength(1);
  });

  it("resolver first, then the late webhook (twice): one SUCCEEDED, the late event changes nothing", async () => {
    // prepare
    const { paymentId } = await tapWithLostReply(false);
    const t = tablesOf(stack());
    await api().local("POST", "/run/resolver");
    const charge = chargesFor(paymentId)[0];
    const event: PspEvent = {
      id: "evt_late_1",
      type: "charge.succeeded",
      data: {
        charge: { id: String(charge?.id), idempotency_key: `${paymentId}:charge`, reference: paymentId },
      },
    };
    // act
    const late = await deliverPspEvent(stack(), event);
    const again = await deliverPspEvent(stack(), event);
    // assess
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ applied: false, duplicate: false });
    expect(again.body).toMatchObject({ applied: false, duplicate: true });
    expect((await t.payment(paymentId))?.state).toBe("SUCCEEDED");
    expect(await t.journal(paymentId)).toHaveLength(2);
  });
});

describe("a concurrent duplicate", () => {
  it("charges once for 20 copies sent at once; the others hear 409 or the same final answer", async () => {
    // prepare
    stack().psp.setWebhookUrl(`${stack().apiUrl}${stack().webhookPath}`);
    const token = await api().token("u1");
    const key = newKey();
    // act
    const replies = await Promise.all(Array.from({ length: 20 }, () => api().pay(token, key, order42())));
    // assess
    const paymentId = replies.find((r) => r.status === 201)?.body.payment_id;
    expect(chargesFor(paymentId)).toHaveLength(1);
    for (const r of replies) {
      expect([201, 409]).toContain(r.status);
      if (r.status === 201) expect(r.body.payment_id).toBe(paymentId);
      if (r.status === 409) expect(r.headers.get("retry-after")).toBeTruthy();
    }
  });
});

describe("an unknown older than the PSP's 24 h key window", () => {
  it("is looked up by our reference, never replayed with a key the PSP forgot: still one charge", async () => {
    // prepare: the reply is lost, no webhook, and the resolver does not run for a day
    const { paymentId } = await tapWithLostReply(false);
    await api().local("POST", "/clock", { advance_s: 25 * 3600 });
    // act
    const resolver = await api().local("POST", "/run/resolver");
    // assess
    expect((resolver.body.result as { settled: unknown[] }).settled).toContainEqual({
      payment_id: paymentId,
      from: "UNKNOWN",
      to: "SUCCEEDED",
    });
    expect(chargesFor(paymentId)).toHaveLength(1);
  });
});
