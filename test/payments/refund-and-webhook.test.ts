import { describe, expect, it } from "vitest";
import { signWebhook } from "../../packages/core/src/psp/webhook-signature";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";
import { snapshotTables } from "../support/tables";

const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);
const refundsFor = (paymentId: unknown) =>
  stack()
    .psp.refunds()
    .filter((r) => r.idempotency_key === `${paymentId}:cancel:refund`);

async function paidPayment() {
  const token = await api().token("u1");
  const paid = await api().pay(token, newKey(), order42());
  return { token, paymentId: String(paid.body.payment_id) };
}

describe("refund (cancel)", () => {
  it("cancelled twice refunds once, with the derived refund key", async () => {
    // prepare
    const { token, paymentId } = await paidPayment();
    // act
    const first = await api().cancel(token, paymentId);
    const second = await api().cancel(token, paymentId);
    // assess
    expect(first.status).toBe(200);
    expect(first.body.state).toBe("REFUNDED");
    expect(second.status).toBe(200);
    expect(refundsFor(paymentId)).toHaveLength(1);
    // The ledger balances to zero for every account once the refund's reversing entries are in.
    const journal = await tablesOf(stack()).journal(paymentId);
    const net = new Map<string, number>();
    for (const e of journal) {
      const signed = (e.side === "debit" ? 1 : -1) * Number(e.amount);
      net.set(String(e.account), (net.get(String(e.account)) ?? 0) + signed);
    }
    expect(journal).toHaveLength(4);
    expect([...net.values()].every((v) => v === 0)).toBe(true);
  });

  it("a refund whose reply is lost stays REFUND_UNKNOWN, then the resolver settles it with the same key", async () => {
    // prepare
    const { token, paymentId } = await paidPayment();
    stack().psp.setWebhookUrl(undefined);
    await api().local("POST", "/faults", { psp_lose_reply: 1 });
    // act
    const lost = await api().cancel(token, paymentId);
    const stateAfterLoss = (await tablesOf(stack()).payment(paymentId))?.state;
    const resolver = await api().local("POST", "/run/resolver");
    const after = await api().cancel(token, paymentId);
    // assess
    expect(lost.status).toBe(202);
    expect(lost.body.state).toBe("REFUND_PENDING");
    expect(stateAfterLoss).toBe("REFUND_UNKNOWN");
    expect((resolver.body.result as { settled: unknown[] }).settled).toContainEqual({
      payment_id: paymentId,
      from: "REFUND_UNKNOWN",
      to: "REFUNDED",
    });
    expect(after.status).toBe(200);
    expect(refundsFor(paymentId)).toHaveLength(1);
  });

  it("refuses to cancel a payment that did not succeed", async () => {
    const token = await api().token("u1");
    const declined = await api().pay(token, newKey(), order42({ payment_method: "pm_card_declined" }));
    const cancel = await api().cancel(token, String(declined.body.payment_id));
    expect(declined.status).toBe(402);
    expect(declined.body.state).toBe("FAILED");
    expect(cancel.status).toBe(409);
    expect(
      stack()
        .psp.refunds()
        .filter((r) => r.idempotency_key.startsWith(String(declined.body.payment_id))),
    ).toHaveLength(0);
  });
});

describe("PSP webhook signature", () => {
  const event = (paymentId: string) =>
    JSON.stringify({
      id: `evt_${paymentId}`,
      type: "charge.failed",
      data: { charge: { id: "ch_x", idempotency_key: `${paymentId}:charge`, reference: paymentId } },
    });
  const nowS = () => Math.floor(Date.now() / 1000);

  it.each([
    ["a wrong secret", (body: string) => signWebhook("not-the-secret", body, nowS())],
    ["a timestamp 301 s off", (body: string) => signWebhook("whsec_local", body, nowS() - 301)],
    ["no signature", () => ""],
  ])("answers 400 to %s and changes nothing", async (_name, sign) => {
    // prepare
    const { paymentId } = await paidPayment();
    const body = event(paymentId);
    const before = await snapshotTables(stack());
    // act
    const reply = await api().send(
      "POST",
      "/webhooks/psp",
      { "psp-signature": sign(body), "content-type": "application/json" },
      body,
    );
    // assess
    expect(reply.status).toBe(400);
    expect(reply.headers.get("content-type")).toContain("application/problem+json");
    expect(await snapshotTables(stack())).toEqual(before);
  });
});

describe("a saved PSP error for the key", () => {
  it("makes the resolver look the charge up by our reference: none there, so UNKNOWN for hours (PSP_SAVED_5XX_SETTLE_S), then FAILED", async () => {
    // prepare: the PSP saves a 500 for the derived key and will replay it forever
    stack().psp.setWebhookUrl(undefined);
    const token = await api().token("u1");
    await api().local("POST", "/faults", { psp_fail: 500, n: 1 });
    const first = await api().pay(token, newKey(), order42());
    const paymentId = String(first.body.payment_id);
    // act
    const early = await api().local("POST", "/run/resolver");
    // the not-found settle (600 s) is not enough for a 5xx: the PSP may still be finishing that request
    await api().local("POST", "/clock", { advance_s: 601 });
    const afterNotFoundSettle = await api().local("POST", "/run/resolver");
    await api().local("POST", "/clock", { advance_s: 4 * 3600 });
    const settled = await api().local("POST", "/run/resolver");
    // assess
    expect(first.status).toBe(202);
    for (const pass of [early, afterNotFoundSettle])
      expect((pass.body.result as { unresolved: unknown[] }).unresolved).toContainEqual({
        payment_id: paymentId,
        state: "UNKNOWN",
      });
    expect((settled.body.result as { settled: unknown[] }).settled).toContainEqual({
      payment_id: paymentId,
      from: "UNKNOWN",
      to: "FAILED",
    });
    expect((await tablesOf(stack()).payment(paymentId))?.decline_code).toBe("no_charge_at_psp");
    expect(
      stack()
        .psp.charges()
        .filter((c) => c.reference === paymentId),
    ).toHaveLength(0);
  });
});
