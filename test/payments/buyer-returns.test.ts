import { afterEach, describe, expect, it } from "vitest";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";

const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);
const chargesFor = (orderRef: string[]) =>
  stack()
    .psp.charges()
    .filter((c) => orderRef.includes(c.reference));

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_NO_DURABLE_GUARD;
});

describe("P6: the buyer comes back after two hours", () => {
  it("finds the key record expired, and the ledger answers with no PSP call", async () => {
    // prepare
    const token = await api().token("u1");
    const key = newKey();
    const first = await api().pay(token, key, order42());
    await api().local("POST", "/clock", { advance_s: 7_200 });
    const pspCalls = stack().psp.requests();
    // act
    const back = await api().pay(token, key, order42());
    // assess
    expect(back.status).toBe(201);
    expect(back.body).toEqual(first.body);
    expect(back.headers.get("idempotent-replayed")).toBe("true");
    expect(stack().psp.requests()).toBe(pspCalls);
  });

  it("Branch X: with the durable guard switched off, the same return charges twice", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_DURABLE_GUARD = "1";
    const token = await api().token("u1");
    const key = newKey();
    const first = await api().pay(token, key, order42());
    await api().local("POST", "/clock", { advance_s: 7_200 });
    // act
    const back = await api().pay(token, key, order42());
    // assess: two payments, two charges, both told "succeeded"
    expect(first.status).toBe(201);
    expect(back.status).toBe(201);
    expect(back.body.payment_id).not.toBe(first.body.payment_id);
    expect(chargesFor([String(first.body.payment_id), String(back.body.payment_id)])).toHaveLength(2);
  });
});
