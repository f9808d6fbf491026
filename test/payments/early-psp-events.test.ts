import type { PspEvent } from "@eo/contract";
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";
import { deliverPspEvent } from "../support/psp-webhook";
import { snapshotTables } from "../support/tables";

const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);

/** Posts a signed PSP event, as the PSP would deliver it (again, for a second call). */
function deliver(id: string, type: PspEvent["type"], charge: PspEvent["data"]["charge"]) {
  return deliverPspEvent(stack(), { id, type, data: { charge } });
}

/** A tap whose PSP reply is lost, with the PSP's own webhooks off: the row stays UNKNOWN until the resolver runs. */
async function chargedButUnknown() {
  stack().psp.setWebhookUrl(undefined);
  const token = await api().token("u1");
  await api().local("POST", "/faults", { psp_lose_reply: 1 });
  const first = await api().pay(token, newKey(), order42());
  const paymentId = String(first.body.payment_id);
  const charge = stack()
    .psp.charges()
    .find((c) => c.reference === paymentId);
  return { first, paymentId, charge: { id: String(charge?.id), idempotency_key: `${paymentId}:charge` } };
}

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_TAKE_EARLY_EVENTS;
  stack().psp.setWebhookUrl(`${stack().apiUrl}${stack().webhookPath}`);
});

describe("a PSP event ahead of its payment (Part 9: the row still replicating after a failover)", () => {
  const ahead = { id: "ch_early", idempotency_key: `pay_${"e".repeat(32)}:charge` };

  it("answers 503 event-ahead for a key of ours with no row here, and writes nothing, so the PSP sends it again", async () => {
    // prepare
    const before = await snapshotTables(stack());
    // act
    const reply = await deliver("evt_ahead_1", "refund.succeeded", ahead);
    // assess
    expect(reply.status).toBe(503);
    expect(String(reply.body.type)).toMatch(/\/event-ahead$/);
    expect(String(reply.body.detail)).toContain("no row for yet");
    expect(reply.headers.get("retry-after")).toBe("2");
    expect(await snapshotTables(stack())).toEqual(before);
  });

  it("counterfactual: taken with a 200 as about no payment of ours, the event is gone for good", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_TAKE_EARLY_EVENTS = "1";
    // act
    const reply = await deliver("evt_ahead_2", "refund.succeeded", ahead);
    // assess
    expect(reply.status).toBe(200);
    expect(reply.body.unknownPayment).toBe(true);
  });
});

describe("a refund event before its charge has settled here", () => {
  it("answers 503 while the row is UNKNOWN; delivered again after the resolver settles the charge, it refunds", async () => {
    // prepare
    const { first, paymentId, charge } = await chargedButUnknown();
    // act
    const early = await deliver(`evt_rf_${paymentId}`, "refund.succeeded", charge);
    await api().local("POST", "/run/resolver");
    const again = await deliver(`evt_rf_${paymentId}`, "refund.succeeded", charge);
    // assess
    expect(first.status).toBe(202);
    expect(early.status).toBe(503);
    expect(String(early.body.detail)).toContain("still UNKNOWN here");
    expect(again.status).toBe(200);
    expect(again.body.applied).toBe(true);
    expect((await tablesOf(stack()).payment(paymentId))?.state).toBe("REFUNDED");
  });

  it("counterfactual: taken early, the refund is remembered as seen and the payment reads SUCCEEDED for ever", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_TAKE_EARLY_EVENTS = "1";
    const { paymentId, charge } = await chargedButUnknown();
    // act
    const early = await deliver(`evt_rf_${paymentId}`, "refund.succeeded", charge);
    await api().local("POST", "/run/resolver");
    const again = await deliver(`evt_rf_${paymentId}`, "refund.succeeded", charge);
    // assess
    expect(early.status).toBe(200);
    expect(again.body.duplicate).toBe(true);
    expect((await tablesOf(stack()).payment(paymentId))?.state).toBe("SUCCEEDED");
  });
});
