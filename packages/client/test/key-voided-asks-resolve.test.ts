import { describe, expect, it } from "vitest";
import { createPaymentsClient, type JournalEntry } from "../src/index";
import { fakeApi, order42, PAYMENT_ID, problem, succeeded } from "./support/fake-api";

// The key the app journaled for order 42 before its first send, whose reply was lost.
const K0: JournalEntry = {
  order_id: "42",
  key: "0193a5e2-7c4b-7def-8a12-3b4c5d6e7f80",
  state: "processing",
  created_at: 1,
  updated_at: 1,
};
const resolved = (state: string) => ({
  status: 200,
  body: state === "VOID" ? { state } : { state, payment_id: PAYMENT_ID },
});
const voided = () => problem("key-voided", 409);
const paths = (calls: { method: string; path: string; key?: string }[]) =>
  calls.map((c) => `${c.method} ${c.path} ${c.key === K0.key ? "K0" : "new key"}`);

// Issue 26: after two failovers a key may be voided in one Region and charged in the other, so a 409 key-voided
// alone is no proof that it never charged. The client asks resolve with the same key before it lets it go.
describe("a void of an earlier epoch", () => {
  it("a 409 key-voided asks resolve with the same key; its VOID alone lets the next pay make a new key", async () => {
    // prepare
    const api = fakeApi([voided(), resolved("VOID"), succeeded()]);
    await api.journal.put(K0);
    const client = createPaymentsClient(api.options);
    // act
    const first = await client.pay(order42());
    const journaled = await api.journal.get("42");
    const again = await client.pay(order42());
    // assess
    expect(paths(api.calls)).toEqual([
      "POST /payments K0",
      "POST /payments/resolve K0",
      "POST /payments new key",
    ]);
    expect(first).toMatchObject({
      kind: "voided",
      next: "pay",
      key: K0.key,
      status: 409,
      resolved: { state: "VOID" },
    });
    expect(journaled).toMatchObject({ key: K0.key, state: "voided" });
    expect(again).toMatchObject({ kind: "succeeded", replayed: false });
    expect(again.key).not.toBe(K0.key);
  });

  it("resolve's SUCCEEDED is the original key's final answer: no new key, the journal says succeeded", async () => {
    // prepare: the key was charged in the other Region; this one still answers 409 (a server before issue 26)
    const api = fakeApi([voided(), resolved("SUCCEEDED"), succeeded()]);
    await api.journal.put(K0);
    const client = createPaymentsClient(api.options);
    // act
    const first = await client.pay(order42());
    const again = await client.pay(order42());
    // assess
    expect(first).toMatchObject({
      kind: "succeeded",
      key: K0.key,
      payment_id: PAYMENT_ID,
      replayed: true,
      resolved: { state: "SUCCEEDED", payment_id: PAYMENT_ID },
    });
    expect(await api.journal.get("42")).toMatchObject({
      key: K0.key,
      state: "succeeded",
      payment_id: PAYMENT_ID,
    });
    expect(again.key).toBe(K0.key);
    expect(api.events).not.toContainEqual(expect.objectContaining({ type: "key-made" }));
  });

  it("resolve's FAILED is the original key's decline: the buyer may try another card under a new key", async () => {
    // prepare
    const api = fakeApi([voided(), resolved("FAILED")]);
    await api.journal.put(K0);
    // act
    const first = await createPaymentsClient(api.options).pay(order42());
    // assess
    expect(first).toMatchObject({
      kind: "declined",
      key: K0.key,
      payment_id: PAYMENT_ID,
      body: { payment_id: PAYMENT_ID, state: "FAILED" },
      resolved: { state: "FAILED" },
    });
    expect(await api.journal.get("42")).toMatchObject({ key: K0.key, state: "declined" });
  });

  it("resolve's PROCESSING keeps the key and sends it again, with backoff, until an answer is final", async () => {
    // prepare: the PSP has no answer yet, then the POST answers as the payment
    const api = fakeApi([voided(), resolved("PROCESSING"), voided(), resolved("PROCESSING"), succeeded()], {
      random: () => 0.9999,
    });
    await api.journal.put(K0);
    // act
    const first = await createPaymentsClient(api.options).pay(order42());
    // assess
    expect(first).toMatchObject({ kind: "succeeded", key: K0.key, attempts: 3 });
    expect(new Set(api.calls.map((c) => c.key))).toEqual(new Set([K0.key]));
    expect(api.slept).toEqual([499, 999]);
  });

  it("without an answer from resolve the key is kept: at the horizon pay answers processing, never voided", async () => {
    // prepare: every POST answers 409 key-voided and every resolve that follows it gets no answer
    const api = fakeApi(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? voided() : "network")),
      { horizonMs: 5_000 },
    );
    await api.journal.put(K0);
    // act
    const first = await createPaymentsClient(api.options).pay(order42());
    // assess
    expect(first).toMatchObject({ kind: "processing", next: "resolve", key: K0.key });
    expect(first.kind === "processing" && first.last.why).toBe("key-voided, resolve: network");
    expect(await api.journal.get("42")).toMatchObject({ key: K0.key, state: "processing" });
    expect(api.calls.map((c) => c.path)).toEqual(
      api.calls.map((_, i) => (i % 2 === 0 ? "/payments" : "/payments/resolve")),
    );
    expect(new Set(api.calls.map((c) => c.key))).toEqual(new Set([K0.key]));
  });
});
