import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadTunables } from "../../packages/core/src/config/config";
import { paymentIdOf } from "../../packages/core/src/ids/derive-ids";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";

// The request path's reads of the authority (issue 40, item 8), counted where the primary's handlers reach it: its
// authority link. No async half and no webhooks, so that no relay, worker or webhook reads beside the request.
const stack = useLocalStack({ asyncHalf: false });
const api = () => new ApiClient(stack().apiUrl);
const reads = () => stack().authority.reads("primary");
const { fenceCacheMs, deadlineMs } = loadTunables();

beforeAll(() => stack().psp.setWebhookUrl(undefined));

afterEach(async () => {
  delete process.env.EO_TEST_UNSAFE_AUTHORITY_READ_PER_CHECK;
  stack().authority.setLatencyMs(0);
  await api().local("DELETE", "/faults");
});

/** Waits out the handlers' fence cache, so that the next request starts without a read to reuse. */
const coldCache = () => new Promise((r) => setTimeout(r, fenceCacheMs + 100));

/** A payment whose PSP answers after the fence cache has run out: the move to SUCCEEDED is a second check. */
async function payWithSlowPsp() {
  const token = await api().token("u1");
  await api().local("POST", "/faults", { psp_delay_ms: fenceCacheMs * 3, n: 1 });
  await coldCache();
  const before = reads();
  const paid = await api().pay(token, newKey(), order42());
  return { paid, reads: reads() - before };
}

/** A key this Region has no trace of, resolved: the passive check, the void's fence and its epoch are three checks. */
async function resolveUnknownKey() {
  const token = await api().token("u1");
  await coldCache();
  const before = reads();
  const resolved = await api().resolve(token, newKey());
  return { resolved, reads: reads() - before };
}

describe("the authority on the hot path", () => {
  it("reads it once for a payment, though the PSP answers after the fence cache ran out", async () => {
    // act
    const { paid, reads } = await payWithSlowPsp();
    // assess
    expect(paid.status).toBe(201);
    expect(reads).toBe(1);
  });

  it("reads it once to void an unknown key: the refusal check, the fence and the void's epoch share it", async () => {
    // act
    const { resolved, reads } = await resolveUnknownKey();
    // assess
    expect(resolved.body).toEqual({ state: "VOID" });
    expect(reads).toBe(1);
  });

  it("counterfactual: with a read per check (guard off) the same payment and void read it two times or more", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_AUTHORITY_READ_PER_CHECK = "1";
    // act
    const pay = await payWithSlowPsp();
    const resolve = await resolveUnknownKey();
    // assess
    expect(pay.paid.status).toBe(201);
    expect(pay.reads).toBeGreaterThanOrEqual(2);
    expect(resolve.resolved.body).toEqual({ state: "VOID" });
    expect(resolve.reads).toBeGreaterThanOrEqual(2);
  });
});

describe("a slow authority", () => {
  /** The authority answers only after longer than the whole deadline; a payment is asked for a new key. */
  async function payAgainstSlowAuthority() {
    const token = await api().token("u1");
    const key = newKey();
    stack().authority.setLatencyMs(deadlineMs * 3);
    await coldCache();
    const pspCalls = stack().psp.requests();
    const started = performance.now();
    const paid = await api().pay(token, key, order42());
    const tookMs = performance.now() - started;
    stack().authority.setLatencyMs(0);
    return { paid, tookMs, pspCalls: stack().psp.requests() - pspCalls, key };
  }

  it("costs the request its read's share, not its deadline: 503 region-passive before the deadline, nothing written", async () => {
    // act
    const { paid, tookMs, pspCalls, key } = await payAgainstSlowAuthority();
    // assess
    expect(paid.status).toBe(503);
    expect(String(paid.body.type)).toMatch(/\/region-passive$/);
    expect(String(paid.body.detail)).toMatch(/no answer within \d+ ms/);
    expect(tookMs).toBeLessThan(deadlineMs);
    expect(pspCalls).toBe(0);
    expect(await tablesOf(stack()).claim(`payments:u1:${key}`)).toBeUndefined();
    expect(await tablesOf(stack()).payment(paymentIdOf("u1", key))).toBeUndefined();
  });

  it("counterfactual: unbounded (guard off), the read alone outlasts the request's deadline", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_AUTHORITY_READ_PER_CHECK = "1";
    // act
    const { paid, tookMs, pspCalls } = await payAgainstSlowAuthority();
    // assess
    expect(paid.status).toBe(503);
    expect(tookMs).toBeGreaterThanOrEqual(deadlineMs);
    expect(pspCalls).toBe(0);
  });
});
