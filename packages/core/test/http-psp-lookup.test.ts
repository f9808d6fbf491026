import { afterEach, describe, expect, it } from "vitest";
import { type FakePsp, startFakePsp } from "../../psp/src/index";
import { HttpPsp } from "../src/psp/http-psp";

let psp: FakePsp | undefined;
afterEach(async () => {
  await psp?.stop();
  psp = undefined;
});

async function charge(url: string, key: string, reference: string, payment_method: string) {
  const res = await fetch(`${url}/v1/charges`, {
    method: "POST",
    headers: { authorization: "Bearer sk_test", "content-type": "application/json", "idempotency-key": key },
    body: JSON.stringify({ amount: 3000, currency: "USD", payment_method, reference }),
  });
  await res.text();
}

describe("looking a charge up by our reference", () => {
  it("reads every page: a success on the second page is found, not taken for a decline", async () => {
    // prepare: 100 declined attempts fill the first page, the success is the 101st
    psp = await startFakePsp({
      webhookSecret: "whsec",
      rateLimits: { perAccount: 10_000, perEndpoint: 10_000 },
    });
    for (let i = 0; i < 100; i++) await charge(psp.url, `d${i}`, "ref-1", "pm_card_declined");
    await charge(psp.url, "ok", "ref-1", "pm_1");
    // act
    const found = await new HttpPsp(psp.url, "sk_test").findCharge("ref-1", 5_000);
    // assess
    expect(found).toMatchObject({ kind: "done" });
  });

  it("says a charge refunded since is refunded: a lookup settles the row REFUNDED, not SUCCEEDED", async () => {
    // prepare
    psp = await startFakePsp({ webhookSecret: "whsec" });
    await charge(psp.url, "k1", "ref-2", "pm_1");
    const http = new HttpPsp(psp.url, "sk_test");
    const before = await http.findCharge("ref-2", 5_000);
    const id = before.kind === "done" ? before.id : "";
    await http.refund("k1:refund", id, "ref-2", 5_000);
    // act
    const after = await http.findCharge("ref-2", 5_000);
    // assess
    expect(before).toEqual({ kind: "done", id });
    expect(after).toEqual({ kind: "done", id, refunded: true });
  });

  it("answers not-found, never a decline, when nothing carries the reference", async () => {
    psp = await startFakePsp({ webhookSecret: "whsec" });
    expect(await new HttpPsp(psp.url, "sk_test").findCharge("nothing-here", 5_000)).toEqual({
      kind: "not-found",
    });
  });
});

describe("reading a refund by its id on the generic PSP (a lookup of its charge's refunds)", () => {
  it("finds the refund named among the charge's refunds, and not-found for another id", async () => {
    // prepare
    psp = await startFakePsp({ webhookSecret: "whsec" });
    await charge(psp.url, "k3", "ref-3", "pm_1");
    const http = new HttpPsp(psp.url, "sk_test");
    const found = await http.findCharge("ref-3", 5_000);
    const chargeId = found.kind === "done" ? found.id : "";
    const refund = await http.refund("k3:refund", chargeId, "ref-3", 5_000);
    const refundId = refund.kind === "done" ? refund.id : "";
    // act
    const read = await http.readRefund(refundId, 5_000, "resolver", chargeId);
    const other = await http.readRefund("re_nothing", 5_000, "resolver", chargeId);
    // assess
    expect(read).toEqual({ kind: "done", id: refundId });
    expect(other).toEqual({ kind: "not-found" });
  });
});
