import { describe, expect, it, vi } from "vitest";
import { paymentIdOf } from "../../packages/core/src/ids/derive-ids";
import { advanceWhenPspIdle } from "../../scripts/lib/chaos/advance-when-psp-idle";
import { ChaosApi } from "../../scripts/lib/chaos/chaos-api";
import { CHAOS_STACK_OPTIONS, chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import { useLocalStack } from "../support/local-stack";
import { payWithSlot } from "../support/pay-with-slot";

Object.assign(process.env, chaosEnv());

// A clock jump stands for hours passing; a charge the PSP still held in real time would otherwise arrive after a
// resolver had waited out its settle time (seed 1221, run 155). The runner's jumps and the quiesce's go through this.
describe("a clock jump while the PSP holds a charge", () => {
  const stack = useLocalStack(CHAOS_STACK_OPTIONS);

  it("waits until the PSP has let go of the held charge, which then exists", async () => {
    // prepare: the PSP holds the next charge for 1.2 s of real time
    const api = new ChaosApi(stack().apiUrl);
    const caller = `adv-${Date.now().toString(36)}`;
    const reference = paymentIdOf(caller, `${caller}-k0`);
    const charged = async () =>
      (await api.local<Array<{ reference: string }>>("GET", "/psp/charges")).some(
        (c) => c.reference === reference,
      );
    await api.local("POST", "/faults", { psp_delay_ms: 1_200, n: 1 });
    const paying = payWithSlot(api, caller, `${caller}-k0`, {
      order_id: "o1",
      amount: 2_000,
      currency: "USD",
      payment_method: "pm_card_visa",
      merchant_id: `${caller}-m1`,
    });
    await vi.waitFor(
      async () => expect((await api.local<{ held: number }>("GET", "/psp/stats")).held).toBe(1),
      { timeout: 5_000, interval: 20 },
    );
    const chargedWhileHeld = await charged();
    // act
    await advanceWhenPspIdle(api, 7_200);
    // assess
    expect(chargedWhileHeld).toBe(false);
    expect(await charged()).toBe(true);
    await paying;
  }, 30_000);
});
