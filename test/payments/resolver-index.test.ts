import { afterEach, describe, expect, it } from "vitest";
import { clock } from "../../packages/core/src/clock/clock";
import { paymentIdOf } from "../../packages/core/src/ids/derive-ids";
import { paymentDeps } from "../../packages/core/src/payment/payment-wiring";
import { makeTakePayment } from "../../packages/core/src/payment/take-payment";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";
import { runScript } from "../support/run-script";
import { eventually } from "../support/tables";

const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);
type Report = { examined: number; unresolved: unknown[] };

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_KEEP_INDEX_ON_MOVE;
});

async function resolverPass(): Promise<Report> {
  return (await api().local("POST", "/run/resolver")).body.result as Report;
}

/** The row as DynamoDB holds it, index fields included. */
async function indexFieldsOf(paymentId: string) {
  const item = (await tablesOf(stack()).payment(paymentId)) as Record<string, unknown> | undefined;
  return { state: item?.state, gsi1pk: item?.gsi1pk, gsi1sk: item?.gsi1sk };
}

async function tapWithLostReply(webhooks: boolean) {
  stack().psp.setWebhookUrl(webhooks ? `${stack().apiUrl}${stack().webhookPath}` : undefined);
  const token = await api().token("u1");
  await api().local("POST", "/faults", { psp_lose_reply: 1 });
  const first = await api().pay(token, newKey(), order42());
  return { token, paymentId: String(first.body.payment_id) };
}

// Every path that settles a payment must take it out of the resolver's sparse index, or the resolver
// examines it on every pass for ever and, once refunded, replays its charge key.
describe("the resolver's index holds only open payments", () => {
  it("webhook first: the settled payment leaves the index; a resolver pass examines nothing", async () => {
    // prepare
    const { paymentId } = await tapWithLostReply(true);
    // act
    await eventually(async () => ((await indexFieldsOf(paymentId)).state === "SUCCEEDED" ? true : undefined));
    const first = await resolverPass();
    const second = await resolverPass();
    // assess
    expect(await indexFieldsOf(paymentId)).toEqual({
      state: "SUCCEEDED",
      gsi1pk: undefined,
      gsi1sk: undefined,
    });
    expect(first).toMatchObject({ examined: 0, unresolved: [] });
    expect(second).toMatchObject({ examined: 0, unresolved: [] });
  });

  it("resolver first: one pass settles it, the next examines nothing", async () => {
    // prepare
    const { paymentId } = await tapWithLostReply(false);
    // act
    const settling = await resolverPass();
    const next = await resolverPass();
    // assess
    expect(settling.examined).toBe(1);
    expect(await indexFieldsOf(paymentId)).toEqual({
      state: "SUCCEEDED",
      gsi1pk: undefined,
      gsi1sk: undefined,
    });
    expect(next).toMatchObject({ examined: 0, unresolved: [] });
  });

  it("refund: REFUNDED leaves the index and its charge key is never replayed", async () => {
    // prepare
    stack().psp.setWebhookUrl(undefined);
    const token = await api().token("u1");
    const paid = await api().pay(token, newKey(), order42());
    const paymentId = String(paid.body.payment_id);
    // act
    const cancel = await api().cancel(token, paymentId);
    const pspCalls = stack().psp.requests();
    const pass = await resolverPass();
    // assess
    expect(cancel.status).toBe(200);
    expect(await indexFieldsOf(paymentId)).toEqual({
      state: "REFUNDED",
      gsi1pk: undefined,
      gsi1sk: undefined,
    });
    expect(pass).toMatchObject({ examined: 0, unresolved: [] });
    expect(stack().psp.requests()).toBe(pspCalls);
  });

  it("lost refund: settled by the resolver, then out of the index", async () => {
    // prepare
    stack().psp.setWebhookUrl(undefined);
    const token = await api().token("u1");
    const paymentId = String((await api().pay(token, newKey(), order42())).body.payment_id);
    await api().local("POST", "/faults", { psp_lose_reply: 1 });
    const lost = await api().cancel(token, paymentId);
    // act
    const settling = await resolverPass();
    const next = await resolverPass();
    // assess
    expect(lost.status).toBe(202);
    expect(settling.examined).toBe(1);
    expect(await indexFieldsOf(paymentId)).toEqual({
      state: "REFUNDED",
      gsi1pk: undefined,
      gsi1sk: undefined,
    });
    expect(next).toMatchObject({ examined: 0, unresolved: [] });
  });

  // Before any test moves the stack's clock: the script runs in its own process, on wall time.
  it("the on-call resolver script, run twice after these, exits 0 both times", async () => {
    // act
    const first = await runScript("scripts/resolve-unknowns.ts", ["--env"]);
    const second = await runScript("scripts/resolve-unknowns.ts", ["--env"]);
    // assess
    expect(first.code, first.out).toBe(0);
    expect(second.code, second.out).toBe(0);
    expect(second.out).toMatch(/summary: examined 0/);
  }, 90_000);
  it("takeover of a crashed owner: the taker settles it and the payment leaves the index", async () => {
    // prepare: an owner that placed the durable guard and then never came back from the PSP
    stack().psp.setWebhookUrl(undefined);
    const token = await api().token("u1");
    const key = newKey();
    const deps = paymentDeps();
    const never = new Promise<never>(() => {});
    const crashed = makeTakePayment({ ...deps, psp: { ...deps.psp, charge: () => never } });
    void crashed({ caller: "u1", key, request: order42(), arrivalMs: clock.now() });
    const paymentId = paymentIdOf("u1", key);
    await eventually(async () => ((await indexFieldsOf(paymentId)).state === "PENDING" ? true : undefined));
    // act: the phone retries after the owner's lease and the 1 s margin
    await api().local("POST", "/clock", { advance_s: 7 });
    const retry = await api().pay(token, key, order42());
    const pass = await resolverPass();
    // assess
    expect(retry.status).toBe(201);
    expect(await indexFieldsOf(paymentId)).toEqual({
      state: "SUCCEEDED",
      gsi1pk: undefined,
      gsi1sk: undefined,
    });
    expect(pass).toMatchObject({ examined: 0, unresolved: [] });
  });

  // Last in the file: the row it leaves in the index would be examined by every later pass.
  it("with the old index fields carried on (the guard off), the settled payment is examined on every pass", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_KEEP_INDEX_ON_MOVE = "1";
    const { paymentId } = await tapWithLostReply(false);
    // act
    await resolverPass();
    const next = await resolverPass();
    // assess: the failure the fix removes
    expect(next.examined).toBe(1);
    expect(next.unresolved).toContainEqual({ payment_id: paymentId, state: "SUCCEEDED" });
  });
});
