import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { clock } from "../../packages/core/src/clock/clock";
import { paymentDeps } from "../../packages/core/src/payment/payment-wiring";
import { makeTakePayment } from "../../packages/core/src/payment/take-payment";
import { buyer, merchantId, merchantOf, outboxItem, pay, settled } from "../async/support/async-stack";
import { useLocalStack } from "../support/local-stack";

// A payment that succeeded while no mapping read the ledger's stream: in AWS, a relay mapping created (or
// re-created) after it starts at LATEST and never sees its outbox item; the sweeps re-send it. Locally the same.
const early = { merchant: merchantId("m-before-mapping"), paymentId: "" };
const stack = useLocalStack({
  beforeMappings: async () => {
    const key = randomUUID();
    const answer = await makeTakePayment(paymentDeps())({
      caller: "buyer-before-mapping",
      key,
      request: {
        order_id: `order-${key}`,
        amount: 3000,
        currency: "USD",
        payment_method: "pm_card",
        merchant_id: early.merchant,
      },
      arrivalMs: clock.now(),
    });
    early.paymentId = String(answer.body.payment_id);
  },
});

const post = async (path: string, body?: unknown) =>
  (
    await fetch(`${stack().apiUrl}/_local${path}`, { method: "POST", body: JSON.stringify(body ?? {}) })
  ).json();

describe("the relay's mapping starts at LATEST, as in AWS; the sweeps cover what it never saw", () => {
  it("an outbox item written before the mapping started is sent by the sweep after OUTBOX_SWEEP_AFTER_S, once", async () => {
    // prepare: a later payment is relayed and credited, so the mapping has read past the early item
    const eventId = `${early.paymentId}:SUCCEEDED`;
    const later = await pay(stack(), await buyer(stack(), "after-mapping"), {
      merchant: merchantId("m-after"),
    });
    await settled(stack(), later.eventId);
    const leftByTheStream = await outboxItem(eventId);
    const creditsBeforeSweep = await merchantOf(stack(), early.merchant);
    // act: a sweep before the threshold leaves it; one after it (120 s on the shared clock) re-sends it
    const tooYoung = (await post("/run/sweeps")) as { result: { outbox: { resent: number } } };
    await post("/clock", { advance_s: 180 });
    const swept = (await post("/run/sweeps")) as { result: { outbox: { resent: number } } };
    await settled(stack(), eventId);
    // assess
    expect(later.status).toBe(201);
    expect(leftByTheStream).toMatchObject({ event_id: eventId, merchant_id: early.merchant });
    expect(creditsBeforeSweep).toMatchObject({ credits: 0 });
    expect(tooYoung.result.outbox.resent).toBe(0);
    expect(swept.result.outbox.resent).toBe(1);
    expect(await outboxItem(eventId)).toBeUndefined();
    expect(await merchantOf(stack(), early.merchant)).toMatchObject({ credits: 1, balance: 3000 });
  }, 60_000);
});
