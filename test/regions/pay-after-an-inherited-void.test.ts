import { createPaymentsClient, memoryJournal } from "@eo/client";
import { afterEach, describe, expect, it } from "vitest";
import { ChaosApi } from "../../scripts/lib/chaos/chaos-api";
import { CHAOS_TWO_REGION_OPTIONS, chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import { useLocalStack } from "../support/local-stack";
import { payAfterAnInheritedVoid, trustingThe409, type VoidedHere } from "./support/forced-failover";

Object.assign(process.env, chaosEnv());

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_TRUST_INHERITED_VOID_ON_PAY;
  delete process.env.EO_TEST_UNSAFE_VOID_ON_LAGGING_NOT_FOUND;
});

/** The app of `trustingThe409`, sending k0 while the PSP's lookup by our reference lags (issue 40). */
function whileTheLookupLags(api: ChaosApi) {
  return async (trace: VoidedHere) => {
    await api.local("POST", "/faults", { psp_search_lag: 1, n: 1 });
    return trustingThe409(api)(trace);
  };
}

// Issue 26, item 4. Resolve voids k0 in the primary under epoch e, and the primary fails with the tombstone
// unshipped; the standby (e + 1) charges k0, loses the reply and fails with its row unshipped; back in the primary
// (e + 2) the app sends k0 to POST /payments, which meets its own void of epoch e (the claim's, which carries no
// epoch and counts as the first, or after the key record's hour the ledger's tombstone).
describe("a void of an earlier epoch", () => {
  const stack = useLocalStack(CHAOS_TWO_REGION_OPTIONS);

  // First, before any test moves the shared clock: a failover stamps `active_from` on the wall clock, so after the
  // clock was moved forward the settle time since it has passed at once (the lag test would then see a final one).
  it("while the PSP's lookup lags, its 'not found' is not final: 202 PROCESSING with Retry-After, k0 kept, one charge", async () => {
    // prepare
    const api = new ChaosApi(stack().apiUrl);
    // act
    const { acted, charged, references } = await payAfterAnInheritedVoid(api, whileTheLookupLags(api));
    // assess
    expect(acted.again.status, JSON.stringify(acted.again.body)).toBe(202);
    expect(acted.again.body).toMatchObject({ payment_id: references[0], state: "PROCESSING" });
    expect(Number(acted.again.retryAfter)).toBeGreaterThan(0);
    expect(acted.paid).toBeUndefined();
    expect(charged).toEqual([references[0]]);
  }, 180_000);

  it("counterfactual: one lagging 'not found' is taken as final: 409, and the app's new key charges twice", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_VOID_ON_LAGGING_NOT_FOUND = "1";
    const api = new ChaosApi(stack().apiUrl);
    // act
    const { acted, charged } = await payAfterAnInheritedVoid(api, whileTheLookupLags(api));
    // assess
    expect(acted.again.status).toBe(409);
    expect(acted.paid?.status).toBe(201);
    expect(charged).toHaveLength(2);
  }, 180_000);

  it("POST /payments asks the PSP before it answers 409 key-voided: 201 as the payment, and one charge", async () => {
    // prepare
    const api = new ChaosApi(stack().apiUrl);
    // act
    const { voided, acted, charged, charge, references } = await payAfterAnInheritedVoid(
      api,
      trustingThe409(api),
    );
    // assess
    expect(voided.body.state).toBe("VOID");
    expect(acted.again.status, JSON.stringify(acted.again.body)).toBe(201);
    expect(acted.again.body).toMatchObject({
      payment_id: references[0],
      state: "SUCCEEDED",
      order_id: "o1",
      amount: 5_000,
      currency: "USD",
      psp_charge: charge,
    });
    expect(acted.again.replayed).toBe(true);
    expect(acted.paid).toBeUndefined();
    expect(charged).toEqual([references[0]]);
  }, 180_000);

  it("counterfactual: trusting the inherited void answers 409, and an app that makes a new key on it charges twice", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_TRUST_INHERITED_VOID_ON_PAY = "1";
    const api = new ChaosApi(stack().apiUrl);
    // act
    const { acted, charged } = await payAfterAnInheritedVoid(api, trustingThe409(api));
    // assess
    expect(acted.again.status).toBe(409);
    expect(String(acted.again.body.type)).toMatch(/\/key-voided$/);
    expect(acted.paid?.status).toBe(201);
    expect(charged).toHaveLength(2);
  }, 180_000);

  it("the shipped client asks resolve on that 409 and keeps the key: SUCCEEDED for k0, and one charge", async () => {
    // prepare: the server still trusts the void on pay; the app's journal holds k0 from the lost reply
    process.env.EO_TEST_UNSAFE_TRUST_INHERITED_VOID_ON_PAY = "1";
    const api = new ChaosApi(stack().apiUrl);
    const withTheClient = async ({ caller, keys, body }: VoidedHere) => {
      const journal = memoryJournal();
      await journal.put({
        order_id: body.order_id,
        key: keys[0],
        state: "processing",
        created_at: 1,
        updated_at: 1,
      });
      const client = createPaymentsClient({ baseUrl: api.baseUrl, token: () => api.token(caller), journal });
      return { result: await client.pay(body), journaled: await journal.get(body.order_id) };
    };
    // act
    const { acted, charged, references, keys } = await payAfterAnInheritedVoid(api, withTheClient);
    // assess
    expect(acted.result).toMatchObject({
      kind: "succeeded",
      key: keys[0],
      payment_id: references[0],
      resolved: { state: "SUCCEEDED", payment_id: references[0] },
    });
    expect(acted.journaled).toMatchObject({ key: keys[0], state: "succeeded" });
    expect(charged).toEqual([references[0]]);
  }, 180_000);

  it("after the key record's hour the ledger's tombstone of an earlier epoch answers: the same 201, and one charge", async () => {
    // prepare: the claim's void has expired, so the durable guard's VOID tombstone is what meets k0
    const api = new ChaosApi(stack().apiUrl);
    const anHourLater = async (trace: VoidedHere) => {
      await api.local("POST", "/clock", { advance_s: 7_200 });
      return trustingThe409(api)(trace);
    };
    // act
    const { acted, charged, charge, references } = await payAfterAnInheritedVoid(api, anHourLater);
    // assess
    expect(acted.again.status, JSON.stringify(acted.again.body)).toBe(201);
    expect(acted.again.body).toMatchObject({
      payment_id: references[0],
      state: "SUCCEEDED",
      psp_charge: charge,
    });
    expect(acted.paid).toBeUndefined();
    expect(charged).toEqual([references[0]]);
  }, 180_000);
});
