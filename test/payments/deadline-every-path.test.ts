import { afterEach, describe, expect, it } from "vitest";
import { clock } from "../../packages/core/src/clock/clock";
import { paymentIdOf } from "../../packages/core/src/ids/derive-ids";
import { paymentDeps } from "../../packages/core/src/payment/payment-wiring";
import { makeTakePayment } from "../../packages/core/src/payment/take-payment";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";
import { eventually } from "../support/tables";

const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);

afterEach(async () => {
  delete process.env.EO_TEST_UNSAFE_NO_DEADLINE_CHECK;
  await api().local("DELETE", "/faults");
});

/** Pays once with a request that freezes after its claim for longer than the deadline. */
async function stalledPayment() {
  stack().psp.setWebhookUrl(undefined);
  const token = await api().token("u1");
  const key = newKey();
  const pspCalls = stack().psp.requests();
  await api().local("POST", "/faults", { stall_after_claim_ms: 5_500 });
  const reply = await api().pay(token, key, order42());
  const paymentId = paymentIdOf("u1", key);
  const t = tablesOf(stack());
  return { reply, row: await t.payment(paymentId), pspCalls: stack().psp.requests() - pspCalls };
}

describe("the deadline holds on every path (Part 4)", () => {
  it("a request that stalls after its claim past the deadline commits nothing: 503, no payment row, no PSP call", async () => {
    // act
    const { reply, row, pspCalls } = await stalledPayment();
    // assess
    expect(reply.status).toBe(503);
    expect(String(reply.body.detail)).toMatch(/deadline/);
    expect(row).toBeUndefined();
    expect(pspCalls).toBe(0);
  }, 20_000);

  it("with the deadline check removed, the stalled request leaves a late payment row behind", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_DEADLINE_CHECK = "1";
    // act
    const { row } = await stalledPayment();
    // assess: the failure the check prevents, a row committed after the deadline
    expect(row).toBeDefined();
  }, 20_000);

  it("a takeover whose replay meets a saved error looks the charge up only within what is left of its deadline", async () => {
    // prepare: an owner whose PSP call got a 500 (saved under the key) and who then crashed
    stack().psp.setWebhookUrl(undefined);
    const token = await api().token("u1");
    const key = newKey();
    const deps = paymentDeps();
    const crashAfterCall: typeof deps.psp.charge = async (k, p, ms) => {
      await deps.psp.charge(k, p, ms);
      return new Promise<never>(() => {});
    };
    await api().local("POST", "/faults", { psp_fail: 500, n: 1 });
    void makeTakePayment({ ...deps, psp: { ...deps.psp, charge: crashAfterCall } })({
      caller: "u1",
      key,
      request: order42(),
      arrivalMs: clock.now(),
    });
    const paymentId = paymentIdOf("u1", key);
    const t = tablesOf(stack());
    await eventually(async () => ((await t.payment(paymentId))?.state === "PENDING" ? true : undefined));
    await api().local("POST", "/clock", { advance_s: 7 });
    // the replay is slow (3 s) and answers the saved 500; the lookup would take 8 s
    await api().local("POST", "/faults", { psp_delay_ms: 3_000, n: 1 });
    await api().local("POST", "/faults", { psp_lookup_delay_ms: 8_000, n: 1 });
    const sent = Date.now();
    // act
    const retry = await api().pay(token, key, order42());
    // assess: answered by the deadline (5 s less the clock margin), never after a second full timeout
    const elapsed = Date.now() - sent;
    expect(retry.status).toBe(202);
    expect(elapsed).toBeLessThan(5_500);
    expect((await t.payment(paymentId))?.state).toBe("UNKNOWN");
  }, 30_000);
});
