import { afterEach, describe, expect, it } from "vitest";
import { clock } from "../../packages/core/src/clock/clock";
import { signWebhook } from "../../packages/core/src/psp/webhook-signature";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";
import { runScript } from "../support/run-script";
import { eventually } from "../support/tables";

const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);
type Report = {
  examined: number;
  settled: unknown[];
  unresolved: unknown[];
  anomalies: Array<{ payment_id: string; kind: string }>;
};
const resolverPass = async () => (await api().local("POST", "/run/resolver")).body.result as Report;

async function deliver(event: unknown) {
  const body = JSON.stringify(event);
  const signature = signWebhook("whsec_local", body, Math.floor(clock.now() / 1000));
  return api().send("POST", "/webhooks/psp", { "psp-signature": signature }, body);
}

async function lostReply(over: Record<string, unknown> = {}, webhooks = false) {
  stack().psp.setWebhookUrl(webhooks ? `${stack().apiUrl}/webhooks/psp` : undefined);
  const token = await api().token("u1");
  await api().local("POST", "/faults", { psp_lose_reply: 1 });
  const first = await api().pay(token, newKey(), order42(over));
  return { token, paymentId: String(first.body.payment_id) };
}

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_NOT_FOUND_IS_DECLINE;
});

describe("not found by our reference is not a decline", () => {
  it("a lookup while the PSP's search lags leaves the payment UNKNOWN; a later pass, after a backoff, finds the charge", async () => {
    // prepare: past the PSP's key window the resolver looks the charge up instead of replaying
    const { paymentId } = await lostReply();
    await api().local("POST", "/clock", { advance_s: 25 * 3600 });
    await api().local("POST", "/faults", { psp_search_lag: 1 });
    // act
    const lagging = await resolverPass();
    const atOnce = await resolverPass();
    await api().local("POST", "/clock", { advance_s: 31 });
    const later = await resolverPass();
    // assess
    expect(lagging.unresolved).toContainEqual({ payment_id: paymentId, state: "UNKNOWN" });
    expect(atOnce.examined).toBe(0);
    expect(later.settled).toContainEqual({ payment_id: paymentId, from: "UNKNOWN", to: "SUCCEEDED" });
    expect(
      stack()
        .psp.charges()
        .filter((c) => c.reference === paymentId),
    ).toHaveLength(1);
  });
});

describe("not found read as a decline (the guard off)", () => {
  it("fails a payment the PSP did charge, when the lookup meets a lagging search", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NOT_FOUND_IS_DECLINE = "1";
    const { paymentId } = await lostReply();
    await api().local("POST", "/clock", { advance_s: 25 * 3600 });
    await api().local("POST", "/faults", { psp_search_lag: 1 });
    // act
    const pass = await resolverPass();
    // assess: FAILED, yet the card was charged
    expect(pass.settled).toContainEqual({ payment_id: paymentId, from: "UNKNOWN", to: "FAILED" });
    expect(
      stack()
        .psp.charges()
        .filter((c) => c.reference === paymentId),
    ).toHaveLength(1);
  });
});

describe("a charge.succeeded for a FAILED payment", () => {
  it("is recorded on the row as an anomaly, once, and listed in every resolver report and by the script (exit 1); the state stays FAILED", async () => {
    // prepare
    stack().psp.setWebhookUrl(undefined);
    const token = await api().token("u1");
    const declined = await api().pay(token, newKey(), order42({ payment_method: "pm_card_declined" }));
    const paymentId = String(declined.body.payment_id);
    const event = (id: string) => ({
      id,
      type: "charge.succeeded",
      data: { charge: { id: "ch_surprise", idempotency_key: `${paymentId}:charge`, reference: paymentId } },
    });
    // act
    const first = await deliver(event("evt_surprise_1"));
    const repeat = await deliver(event("evt_surprise_1"));
    const passes = [await resolverPass(), await resolverPass()];
    const script = await runScript("scripts/resolve-unknowns.ts", ["--env"]);
    // assess
    expect(declined.status).toBe(402);
    expect(first.status).toBe(200);
    expect(first.body.anomaly).toBe(true);
    expect(repeat.body.anomaly).toBeUndefined();
    const row = await tablesOf(stack()).payment(paymentId);
    expect(row?.state).toBe("FAILED");
    expect(row?.anomaly).toMatchObject({ kind: "charge-succeeded-for-failed", psp_charge: "ch_surprise" });
    for (const pass of passes) {
      expect(pass.examined).toBe(0);
      expect(pass.anomalies).toContainEqual(expect.objectContaining({ payment_id: paymentId }));
    }
    expect(script.code, script.out).toBe(1);
    expect(script.out).toContain(`ANOMALY ${paymentId}`);
  });
});

describe("the decline code", () => {
  it("is the PSP's own whichever path settles the payment: the reply, the webhook, the resolver or a lookup", async () => {
    // prepare
    const declinedCard = { payment_method: "pm_card_declined" };
    const token = await api().token("u1");
    stack().psp.setWebhookUrl(undefined);
    const live = await api().pay(token, newKey(), order42(declinedCard));
    const t = tablesOf(stack());
    // act
    const byWebhook = await lostReply(declinedCard, true);
    await eventually(async () =>
      (await t.payment(byWebhook.paymentId))?.state === "FAILED" ? true : undefined,
    );
    const byResolver = await lostReply(declinedCard);
    const replayed = await api().local("POST", "/run/resolver");
    // (the lookup path: a payment past the PSP's key window is looked up by our reference)
    const lateOne = await lostReply(declinedCard);
    await api().local("POST", "/clock", { advance_s: 25 * 3600 });
    await api().local("POST", "/run/resolver");
    // assess
    expect(replayed.status).toBe(200);
    const codes = [
      live.body.decline_code,
      (await t.payment(byWebhook.paymentId))?.decline_code,
      (await t.payment(byResolver.paymentId))?.decline_code,
      (await t.payment(lateOne.paymentId))?.decline_code,
    ];
    expect(codes).toEqual(Array(4).fill("generic_decline"));
  });
});
