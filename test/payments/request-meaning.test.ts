import { describe, expect, it } from "vitest";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";
import { snapshotTables } from "../support/tables";

const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);

describe("3d: the same key with another meaning", () => {
  it("answers 422 to amount 3500 with nothing claimed, nothing written and no PSP call", async () => {
    // prepare
    const token = await api().token("u1");
    const key = newKey();
    const first = await api().pay(token, key, order42());
    const before = await snapshotTables(stack());
    const pspCalls = stack().psp.requests();
    // act
    const reused = await api().pay(token, key, order42({ amount: 3500 }));
    // assess
    expect(first.status).toBe(201);
    expect(reused.status).toBe(422);
    expect(reused.headers.get("content-type")).toContain("application/problem+json");
    expect(String(reused.body.detail)).toMatch(/different request/);
    expect(stack().psp.requests()).toBe(pspCalls);
    expect(await snapshotTables(stack())).toEqual(before);
  });

  it("without the fingerprint (guard off) amount 3500 is answered as the first request: told it succeeded, nothing of it ran", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_FINGERPRINT = "1";
    try {
      const token = await api().token("u1");
      const key = newKey();
      const first = await api().pay(token, key, order42());
      // act
      const reused = await api().pay(token, key, order42({ amount: 3500 }));
      // assess
      expect(reused.status).toBe(201);
      expect(reused.body).toMatchObject({ state: "SUCCEEDED", payment_id: first.body.payment_id });
      expect(
        stack()
          .psp.charges()
          .filter((c) => c.amount === 3500),
      ).toHaveLength(0);
    } finally {
      delete process.env.EO_TEST_UNSAFE_NO_FINGERPRINT;
    }
  });

  it("answers 422 after the key record expired too, and still writes nothing, not even a claim", async () => {
    // prepare
    const token = await api().token("u1");
    const key = newKey();
    await api().pay(token, key, order42());
    await api().local("POST", "/clock", { advance_s: 7_200 });
    const before = await snapshotTables(stack());
    const pspCalls = stack().psp.requests();
    // act
    const reused = await api().pay(token, key, order42({ amount: 3500 }));
    // assess
    expect(reused.status).toBe(422);
    expect(stack().psp.requests()).toBe(pspCalls);
    expect(await snapshotTables(stack())).toEqual(before);
  });

  it("treats a reordered body with an extra timestamp field as the same request", async () => {
    // prepare
    const token = await api().token("u1");
    const key = newKey();
    const first = await api().pay(token, key, order42());
    // act
    const reordered = {
      merchant_id: "m1",
      payment_method: "pm_1",
      currency: "USD",
      amount: 3000,
      order_id: "42",
      ts: Date.now(),
    };
    const again = await api().pay(token, key, reordered);
    // assess
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(
      stack()
        .psp.charges()
        .filter((c) => c.reference === first.body.payment_id),
    ).toHaveLength(1);
  });
});

describe("scope: payments:{caller}:{key}", () => {
  it("gives caller u2 sending u1's key a payment of its own", async () => {
    const key = newKey();
    const u1 = await api().pay(await api().token("u1"), key, order42());
    const u2 = await api().pay(await api().token("u2"), key, order42());
    expect(u1.status).toBe(201);
    expect(u2.status).toBe(201);
    expect(u2.body.payment_id).not.toBe(u1.body.payment_id);
    expect(u2.headers.get("idempotent-replayed")).toBeNull();
  });

  it("keeps caller u:1 with key K apart from caller u with key 1:K", async () => {
    const suffix = newKey();
    const a = await api().pay(await api().token("u:1"), `K${suffix}`, order42());
    const b = await api().pay(await api().token("u"), `1:K${suffix}`, order42());
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.payment_id).not.toBe(a.body.payment_id);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
  });

  it("answers 404, not 403, when u2 reads or cancels u1's payment", async () => {
    const paid = await api().pay(await api().token("u1"), newKey(), order42());
    const u2 = await api().token("u2");
    const read = await api().get(u2, String(paid.body.payment_id));
    const cancel = await api().cancel(u2, String(paid.body.payment_id));
    const own = await api().get(await api().token("u1"), String(paid.body.payment_id));
    expect(read.status).toBe(404);
    expect(cancel.status).toBe(404);
    expect(own.status).toBe(200);
    expect(own.body.state).toBe("SUCCEEDED");
  });
});

describe("bad input writes nothing", () => {
  const cases: Array<[string, string | undefined, string, number]> = [
    ["a missing key", undefined, JSON.stringify(order42()), 400],
    ["a 256-character key", "k".repeat(256), JSON.stringify(order42()), 400],
    ["a key with a space", "my key", JSON.stringify(order42()), 400],
    ["a body that is not JSON", "ok-key", "{not json", 400],
    ["amount 0", "ok-key", JSON.stringify(order42({ amount: 0 })), 400],
    ["amount -5", "ok-key", JSON.stringify(order42({ amount: -5 })), 400],
    ["amount 1.5", "ok-key", JSON.stringify(order42({ amount: 1.5 })), 400],
    ['amount "30"', "ok-key", JSON.stringify(order42({ amount: "30" })), 400],
    ['currency "usd"', "ok-key", JSON.stringify(order42({ currency: "usd" })), 400],
    ['currency "XYZ"', "ok-key", JSON.stringify(order42({ currency: "XYZ" })), 400],
    [
      "a missing field",
      "ok-key",
      JSON.stringify({ order_id: "42", amount: 3000, currency: "USD", payment_method: "pm_1" }),
      400,
    ],
    ["a 17 KiB body", "ok-key", JSON.stringify(order42({ pad: "x".repeat(17 * 1024) })), 413],
  ];

  it.each(cases)(
    "refuses %s with problem+json and leaves the tables unchanged",
    async (_name, key, raw, status) => {
      // prepare
      const token = await api().token("u3");
      const before = await snapshotTables(stack());
      const pspCalls = stack().psp.requests();
      // act
      const reply = await api().pay(token, key, undefined, raw);
      // assess
      expect(reply.status).toBe(status);
      expect(reply.headers.get("content-type")).toContain("application/problem+json");
      expect(reply.body.status).toBe(status);
      expect(String(reply.body.detail).length).toBeGreaterThan(10);
      expect(await snapshotTables(stack())).toEqual(before);
      expect(stack().psp.requests()).toBe(pspCalls);
    },
  );
});
