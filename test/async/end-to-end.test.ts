import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalStack } from "../../packages/local/src/stack/start-stack";
import {
  armFaults,
  assertOneShown,
  buyer,
  emailsTo,
  eventually,
  local,
  merchantId,
  merchantOf,
  pay,
  screenOf,
  settled,
  startAsyncStack,
  watchMetrics,
} from "./support/async-stack";

let stack: LocalStack;

beforeAll(async () => {
  stack = await startAsyncStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe("End to end: a tap with every fault on its path armed once (Part 11)", () => {
  it("still ends with one charge, one credit, one notification shown and one email", async () => {
    // prepare: the PSP answers after the server's deadline and loses its reply; the relay and the worker die once
    // at each crash point. (psp_fail is left out: a PSP error saved under the key is a decline by design.)
    const metrics = await watchMetrics();
    const b = await buyer(stack, "tap", { phone: "apns", email: true });
    const m = merchantId("m-tap");
    const key = randomUUID();
    await armFaults(stack, {
      psp_delay_ms: 6_000,
      psp_lose_reply: 1,
      relay_crash_after_publish: 1,
      worker_crash_after_commit: 1,
      worker_crash_after_send: 1,
    });
    // act: one tap; the app retries with the same key until it hears a final answer
    const first = await pay(stack, b, { merchant: m, key });
    expect(first.status).toBe(202);
    const final = await eventually(
      "the tap's final answer",
      () => pay(stack, b, { merchant: m, key }),
      (a) => a.status === 201,
      30_000,
      1_000,
    );
    await settled(stack, final.eventId, ["push", "email"]);
    // assess
    const paymentId = final.body.payment_id;
    const charges = await local<Array<{ reference: string }>>(stack, "/_local/psp/charges");
    expect(charges.filter((c) => c.reference === paymentId)).toHaveLength(1);
    expect(await merchantOf(stack, m)).toMatchObject({ credits: 1, balance: 3000 });
    assertOneShown(await screenOf(stack, b), paymentId, 2);
    const emails = await emailsTo(stack, b.email as string);
    expect(emails).toHaveLength(1);
    expect(emails[0]?.body.text).toContain(paymentId);
    expect(await local(stack, "/_local/faults")).toEqual({});
    expect(metrics.count("InboxDuplicatesDropped")).toBeGreaterThanOrEqual(1);
    metrics.stop();
  });
});
