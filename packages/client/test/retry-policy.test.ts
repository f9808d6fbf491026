import { describe, expect, it } from "vitest";
import { createPaymentsClient, jitteredBackoffMs } from "../src/index";
import { fakeApi, order42, problem, processing, succeeded } from "./support/fake-api";

const keysOf = (calls: { key?: string }[]) => new Set(calls.map((c) => c.key));

describe("the phone retries with the same key (Part 2)", () => {
  it("honours Retry-After in seconds as a floor on the wait", async () => {
    // prepare: jitter would wait 0 ms; the server asks for 3 s
    const api = fakeApi([problem("psp-unavailable", 503, { "retry-after": "3" }), succeeded()], {
      random: () => 0,
    });
    // act
    const result = await createPaymentsClient(api.options).pay(order42());
    // assess
    expect(result.kind).toBe("succeeded");
    expect(api.slept).toEqual([3_000]);
    expect(keysOf(api.calls).size).toBe(1);
  });

  it("honours Retry-After as an HTTP date, and on 429", async () => {
    const at = (now: number) => new Date(now + 5_000).toUTCString();
    const api = fakeApi([(now) => ({ status: 429, headers: { "retry-after": at(now) } }), succeeded()], {
      random: () => 0,
    });
    const result = await createPaymentsClient(api.options).pay(order42());
    expect(result.kind).toBe("succeeded");
    expect(api.slept).toEqual([5_000]);
  });

  it("comes back at a booked slot's Retry-After exactly, however many failures came before (the fair queue)", async () => {
    // prepare: three failures grow the backoff to 4 s; then the server books a slot 2 s away
    const api = fakeApi(
      [
        ...Array(3).fill(problem("deadline-passed", 503)),
        problem("psp-unavailable", 503, { "retry-after": "2" }),
        succeeded(),
      ],
      { random: () => 0.9999, backoff: { baseMs: 1_000, capMs: 8_000 } },
    );
    // act
    const result = await createPaymentsClient(api.options).pay(order42());
    // assess: a later retry would lose its place, so no jitter is added to the booked wait
    expect(result.kind).toBe("succeeded");
    expect(api.slept.at(-1)).toBe(2_000);
    expect(api.events).toContainEqual(expect.objectContaining({ type: "retry", why: "slot booked" }));
  });

  it("backs off exponentially with full jitter, never past the cap", async () => {
    // prepare: the largest jitter there is, so each wait shows its ceiling
    const api = fakeApi([...Array(7).fill(problem("deadline-passed", 503)), succeeded()], {
      random: () => 0.9999,
      backoff: { baseMs: 100, capMs: 1_000 },
    });
    // act
    const result = await createPaymentsClient(api.options).pay(order42());
    // assess
    expect(result).toMatchObject({ kind: "succeeded", attempts: 8 });
    expect(api.slept).toEqual([99, 199, 399, 799, 999, 999, 999]);
    const draws = [0.1, 0.7, 0.3].map((r) => jitteredBackoffMs(3, { baseMs: 100, capMs: 1_000 }, () => r));
    expect(draws).toEqual([40, 280, 120]);
  });

  it("stops at the horizon and answers processing: the app should resolve, the key is kept", async () => {
    // prepare: the server fails forever
    const api = fakeApi([problem("psp-unavailable", 503)], {
      horizonMs: 10_000,
      backoff: { baseMs: 1_000, capMs: 4_000 },
      random: () => 0.9999,
    });
    // act
    const result = await createPaymentsClient(api.options).pay(order42());
    // assess
    expect(result).toMatchObject({ kind: "processing", next: "resolve", last: { status: 503 } });
    expect(api.slept.reduce((a, b) => a + b, 0)).toBeLessThan(10_000);
    expect(api.calls.length).toBe(result.kind === "processing" ? result.attempts : -1);
    expect(keysOf(api.calls).size).toBe(1);
    expect((await api.journal.get("42"))?.state).toBe("processing");
    expect(api.events).toContainEqual(
      expect.objectContaining({ type: "horizon", op: "pay", why: "status 503" }),
    );
  });

  it("never retries a 422: the key was reused for another request, a client bug, and the result says so", async () => {
    const api = fakeApi([problem("fingerprint-mismatch", 422), succeeded()]);
    const result = await createPaymentsClient(api.options).pay(order42());
    expect(api.calls).toHaveLength(1);
    expect(result).toMatchObject({
      kind: "refused",
      reason: "fingerprint-mismatch",
      client_bug: true,
      status: 422,
    });
    expect(result.kind === "refused" && result.detail).toMatch(/^client bug/);
    expect(result.kind === "refused" && result.problem?.type).toMatch(/\/fingerprint-mismatch$/);
  });

  it("never retries a 400, and keeps the raw problem for the log", async () => {
    const api = fakeApi([problem("bad-request", 400), succeeded()]);
    const result = await createPaymentsClient(api.options).pay(order42());
    expect(api.calls).toHaveLength(1);
    expect(result).toMatchObject({ kind: "refused", reason: "rejected", client_bug: false, status: 400 });
    expect(result.kind === "refused" && result.problem?.detail).toBe("the server says bad-request");
  });

  it("retries a client timeout with the same key", async () => {
    // prepare: the first request never answers; the phone's timer fires
    const api = fakeApi(["hang", succeeded()], { timeoutMs: 30 });
    // act
    const result = await createPaymentsClient(api.options).pay(order42());
    // assess
    expect(result).toMatchObject({ kind: "succeeded", attempts: 2 });
    expect(api.calls).toHaveLength(2);
    expect(keysOf(api.calls).size).toBe(1);
    expect(api.events).toContainEqual(
      expect.objectContaining({ type: "no-answer", why: "timeout", attempt: 1 }),
    );
  });

  it("retries a network error, 409 in-progress and 429 with the same key, and polls 202 until final", async () => {
    const api = fakeApi(
      [
        "network",
        problem("in-progress", 409, { "retry-after": "1" }),
        { status: 429 },
        processing(2),
        succeeded({ "idempotent-replayed": "true" }),
      ],
      {
        random: () => 0,
      },
    );
    const result = await createPaymentsClient(api.options).pay(order42());
    expect(result).toMatchObject({ kind: "succeeded", attempts: 5, replayed: true });
    expect(api.slept).toEqual([0, 1_000, 0, 2_000]);
    expect(keysOf(api.calls).size).toBe(1);
  });

  it("polls a 202 at the server's Retry-After, without growing the backoff as failures do", async () => {
    const api = fakeApi([...Array(6).fill(processing(2)), succeeded()], { random: () => 0.9999 });
    const result = await createPaymentsClient(api.options).pay(order42());
    expect(result).toMatchObject({ kind: "succeeded", attempts: 7 });
    expect(api.slept).toEqual(Array(6).fill(2_000));
  });

  it("polls a refund's 202 REFUND_PENDING until 200 REFUNDED, and refuses a PSP refusal", async () => {
    const pending = {
      status: 202,
      headers: { "retry-after": "2" },
      body: { payment_id: "pay_0123456789abcdef0123456789abcdef", state: "REFUND_PENDING" },
    };
    const done = {
      status: 200,
      body: { payment_id: "pay_0123456789abcdef0123456789abcdef", state: "REFUNDED" },
    };
    const api = fakeApi([pending, pending, done], { random: () => 0 });
    const refunded = await createPaymentsClient(api.options).cancel("pay_0123456789abcdef0123456789abcdef");
    const refusing = fakeApi([problem("refund-refused", 409)]);
    const refused = await createPaymentsClient(refusing.options).cancel(
      "pay_0123456789abcdef0123456789abcdef",
    );
    expect(refunded).toMatchObject({ kind: "refunded", attempts: 3 });
    expect(api.slept).toEqual([2_000, 2_000]);
    expect(refused).toMatchObject({ kind: "refused", reason: "refund-refused", status: 409 });
    expect(refusing.calls).toHaveLength(1);
  });
});
