import { armFault, clearFaults, manualClock } from "@eo/core";
import { afterEach, describe, expect, it } from "vitest";
import { startFakePsp } from "../src/index";
import { call, chargeBody } from "./http-client";
import { intentParams, type StripeRig, startRig } from "./stripe-harness";

let rig: StripeRig | undefined;

afterEach(async () => {
  await rig?.psp.stop();
  rig = undefined;
});

const byReference = (paymentId: string) => `metadata['payment_id']:'${paymentId}'`;

// The real-world nemesis's lagging index (issue 42): `psp_index_lag_ms` leaves out what is younger than its lag, by
// the PSP's clock, where `psp_search_lag` leaves out everything whatever its age.
describe("an index that lags by a bounded time", () => {
  it("leaves out a charge younger than the lag, and finds it once the charge is older", async () => {
    // prepare
    const clock = manualClock(Date.UTC(2026, 0, 1));
    rig = await startRig({ clock });
    const { stripe, faults } = rig;
    await stripe.paymentIntents.create(intentParams("pay_young"), { idempotencyKey: "k1" });
    faults.arm("psp_index_lag_ms", 600_000, 2);
    // act
    const young = await stripe.paymentIntents.search({ query: byReference("pay_young") });
    clock.advance(601_000);
    const old = await stripe.paymentIntents.search({ query: byReference("pay_young") });
    // assess
    expect(young.data).toEqual([]);
    expect(old.data.map((pi) => pi.metadata.payment_id)).toEqual(["pay_young"]);
  });

  it("leaves Stripe's list alone (read-after-write consistent, as Stripe documents it)", async () => {
    // prepare
    const clock = manualClock(Date.UTC(2026, 0, 1));
    rig = await startRig({ clock, searchLagMs: 0 });
    const { stripe, faults } = rig;
    await stripe.paymentIntents.create(intentParams("pay_listed"), { idempotencyKey: "k2" });
    const created = { gte: Math.floor(clock.now() / 1000) - 60, lte: Math.floor(clock.now() / 1000) + 60 };
    faults.arm("psp_index_lag_ms", 5_000, 1);
    // act
    const listed = await stripe.paymentIntents.list({ created, limit: 100 });
    // assess
    expect(listed.data.map((pi) => pi.metadata.payment_id)).toEqual(["pay_listed"]);
  });

  it("makes the generic PSP's lookup by reference miss a charge made just now, then find it", async () => {
    // prepare
    const clock = manualClock(Date.UTC(2026, 0, 1));
    const psp = await startFakePsp({ webhookSecret: "whsec_test", clock });
    try {
      await call(psp.url, "POST", "/v1/charges", { key: "k3", json: chargeBody() });
      armFault("psp_index_lag_ms", 5_000, 1);
      // act
      const lagging = await call<{ data: unknown[] }>(psp.url, "GET", "/v1/charges?reference=pay_1");
      const caughtUp = await call<{ data: unknown[] }>(psp.url, "GET", "/v1/charges?reference=pay_1");
      // assess
      expect(lagging.body.data).toEqual([]);
      expect(caughtUp.body.data).toHaveLength(1);
    } finally {
      clearFaults();
      await psp.stop();
    }
  });
});
