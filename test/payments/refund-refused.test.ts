import type { PspEvent } from "@eo/contract";
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";
import { refundAtThePsp } from "../support/psp-direct";
import { deliverPspEvent } from "../support/psp-webhook";

const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);
const refundsFor = (paymentId: string) =>
  stack()
    .psp.refunds()
    .filter((r) => r.idempotency_key.startsWith(`${paymentId}:cancel:refund`));

async function paidPayment() {
  stack().psp.setWebhookUrl(undefined);
  const token = await api().token("u1");
  const paid = await api().pay(token, newKey(), order42());
  const paymentId = String(paid.body.payment_id);
  const charge = String(paid.body.psp_charge);
  return { token, paymentId, charge };
}

/** Posts a signed PSP event to our webhook, as the PSP would. */
function deliver(event: PspEvent) {
  return deliverPspEvent(stack(), event);
}

describe("a refund the PSP definitely refuses", () => {
  it("answers 409 refund-refused with the PSP's reason; the payment stays SUCCEEDED and nothing is refunded", async () => {
    // prepare
    const { token, paymentId } = await paidPayment();
    await api().local("POST", "/faults", { psp_refund_refuse: 1 });
    // act
    const cancel = await api().cancel(token, paymentId);
    const view = await api().get(token, paymentId);
    const pass = (await api().local("POST", "/run/resolver")).body.result as { examined: number };
    // assess
    expect(cancel.status).toBe(409);
    expect(cancel.headers.get("content-type")).toContain("application/problem+json");
    expect(String(cancel.body.type)).toMatch(/\/refund-refused$/);
    expect(String(cancel.body.detail)).toMatch(/balance is insufficient/);
    expect(view.body.state).toBe("SUCCEEDED");
    expect((await tablesOf(stack()).payment(paymentId))?.refund_refusal).toMatch(/balance is insufficient/);
    expect(refundsFor(paymentId)).toHaveLength(0);
    expect(pass.examined).toBe(0);
  });

  it("can be refunded again later under a new attempt suffix, :cancel:refund:2, once", async () => {
    // prepare
    const { token, paymentId } = await paidPayment();
    await api().local("POST", "/faults", { psp_refund_refuse: 1 });
    const refused = await api().cancel(token, paymentId);
    // act
    const second = await api().cancel(token, paymentId);
    const repeat = await api().cancel(token, paymentId);
    // assess
    expect(refused.status).toBe(409);
    expect(second.status).toBe(200);
    expect(second.body.state).toBe("REFUNDED");
    expect(repeat.status).toBe(200);
    expect(refundsFor(paymentId).map((r) => r.idempotency_key)).toEqual([`${paymentId}:cancel:refund:2`]);
    expect(await tablesOf(stack()).journal(paymentId)).toHaveLength(4);
  });
});

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_ANY_MOVE_TO_SUCCEEDED;
});

describe("a late charge.succeeded while a refund is in flight", () => {
  async function lateChargeEventDuringRefund() {
    const { token, paymentId, charge } = await paidPayment();
    await api().local("POST", "/faults", { psp_lose_reply: 1 });
    await api().cancel(token, paymentId);
    const late = await deliver({
      id: `evt_late_${paymentId}`,
      type: "charge.succeeded",
      data: { charge: { id: charge, idempotency_key: `${paymentId}:charge`, reference: paymentId } },
    });
    return { paymentId, late, row: await tablesOf(stack()).payment(paymentId) };
  }

  it("leaves the refund attempt alone: still REFUND_UNKNOWN, and the resolver finishes the refund", async () => {
    // act
    const { paymentId, late, row } = await lateChargeEventDuringRefund();
    const pass = (await api().local("POST", "/run/resolver")).body.result as { settled: unknown[] };
    // assess
    expect(late.status).toBe(200);
    expect(row?.state).toBe("REFUND_UNKNOWN");
    expect(pass.settled).toContainEqual({ payment_id: paymentId, from: "REFUND_UNKNOWN", to: "REFUNDED" });
  });

  it("with the rule off (the guard off), the late event undoes the refund attempt", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_ANY_MOVE_TO_SUCCEEDED = "1";
    // act
    const { row } = await lateChargeEventDuringRefund();
    // assess: the refund the PSP may have made is no longer waiting for the resolver
    expect(row?.state).toBe("SUCCEEDED");
  });
});

describe("a refund made at the PSP directly", () => {
  it("its refund.succeeded webhook moves a SUCCEEDED payment to REFUNDED, once", async () => {
    // prepare
    const { token, paymentId, charge } = await paidPayment();
    const event: PspEvent = {
      id: `evt_direct_${paymentId}`,
      type: "refund.succeeded",
      data: { charge: { id: charge, idempotency_key: `${paymentId}:charge`, reference: paymentId } },
    };
    // act
    const first = await deliver(event);
    const again = await deliver(event);
    const cancel = await api().cancel(token, paymentId);
    // assess
    expect(first.status).toBe(200);
    expect(first.body.applied).toBe(true);
    expect(again.body.duplicate).toBe(true);
    expect((await api().get(token, paymentId)).body.state).toBe("REFUNDED");
    expect(cancel.status).toBe(200);
    expect(await tablesOf(stack()).journal(paymentId)).toHaveLength(4);
    expect(refundsFor(paymentId)).toHaveLength(0);
  });

  it("charge_already_refunded from the PSP moves the payment to REFUNDED", async () => {
    // prepare: someone refunds the charge at the PSP with a key of their own
    const { token, paymentId, charge } = await paidPayment();
    const direct = await refundAtThePsp(stack(), charge);
    // act
    const cancel = await api().cancel(token, paymentId);
    // assess
    expect(direct.status).toBe(200);
    expect(cancel.status).toBe(200);
    expect(cancel.body.state).toBe("REFUNDED");
    expect(await tablesOf(stack()).journal(paymentId)).toHaveLength(4);
  });
});

describe("a lost refund reply past the PSP's key window", () => {
  it("is settled by looking the refund up by the charge, never by replaying the forgotten key", async () => {
    // prepare
    const { token, paymentId } = await paidPayment();
    await api().local("POST", "/faults", { psp_lose_reply: 1 });
    const lost = await api().cancel(token, paymentId);
    await api().local("POST", "/clock", { advance_s: 25 * 3600 });
    const logFrom = stack().psp.requestLog().length;
    // act
    const pass = (await api().local("POST", "/run/resolver")).body.result as { settled: unknown[] };
    // assess
    const calls = stack().psp.requestLog().slice(logFrom);
    expect(lost.status).toBe(202);
    expect(pass.settled).toContainEqual({ payment_id: paymentId, from: "REFUND_UNKNOWN", to: "REFUNDED" });
    expect(calls).toContain("GET /v1/refunds");
    expect(calls).not.toContain("POST /v1/refunds");
    expect(refundsFor(paymentId)).toHaveLength(1);
  });
});
