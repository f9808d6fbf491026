/**
 * The metrics that cross a store, from the log output of the handlers running on the local stack (the primary's
 * handlers run in this process): answers through the API, the resolver's pass and the Region's view of the
 * authority, and the worker's failures.
 */
import type { Context, SQSEvent } from "aws-lambda";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { watchEmf } from "../support/emf";
import { useLocalStack } from "../support/local-stack";
import { makeActive } from "../support/regions";

const emf = watchEmf();
const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);
const context = {
  functionName: "test",
  awsRequestId: "r1",
  getRemainingTimeInMillis: () => 30_000,
} as unknown as Context;
const values = (name: string, dims: Record<string, string> = {}) => emf.of(name, dims).map((m) => m.value);

afterEach(async () => {
  await makeActive(stack(), "primary");
  emf.clear();
});
afterAll(() => emf.stop());

describe("payment answers and PSP calls through the API", () => {
  it("counts a 201 and a 402 with the live PSP calls behind them", async () => {
    // prepare
    const token = await api().token("u-metrics");
    // act
    const paid = await api().pay(token, newKey(), order42());
    const declined = await api().pay(token, newKey(), order42({ payment_method: "pm_card_declined" }));
    // assess
    expect([paid.status, declined.status]).toEqual([201, 402]);
    expect(values("PaymentAnswers", { Status: "201", Kind: "none" })).toEqual([1]);
    expect(values("PaymentAnswers", { Status: "402" })).toEqual([1]);
    expect(values("PspCalls", { Origin: "live", Outcome: "ok" })).toEqual([1]);
    expect(values("PspCalls", { Origin: "live", Outcome: "declined" })).toEqual([1]);
  });
});

describe("the resolver's pass", () => {
  it("publishes the unknown backlog and its oldest age, what it settled, and the Region's view", async () => {
    // prepare: a payment whose reply was lost, 20 s old; webhooks off, so that the resolver is what settles it
    stack().psp.setWebhookUrl(undefined);
    const token = await api().token("u-metrics");
    await api().local("POST", "/faults", { psp_lose_reply: 1 });
    const first = await api().pay(token, newKey(), order42());
    await api().local("POST", "/clock", { advance_s: 20 });
    const epoch = await makeActive(stack(), "primary");
    emf.clear();
    const { handler } = await import("@eo/functions/cron/resolver");
    // act
    const report = await handler();
    // assess
    expect(first.status).toBe(202);
    expect(report).toMatchObject({ backlog: 1, settled: [{ to: "SUCCEEDED" }] });
    expect(values("UnknownBacklog")).toEqual([1]);
    expect(values("UnknownOldestAgeS")[0]).toBeGreaterThanOrEqual(20);
    expect(values("ResolverSettled")).toEqual([1]);
    expect(values("ResolverUnresolved")).toEqual([0]);
    expect(values("RegionActive")).toEqual([1]);
    expect(values("AuthorityEpoch")).toEqual([epoch]);
    expect(values("PspCalls", { Origin: "resolver" }).length).toBeGreaterThan(0);
  });

  it("in a Region the authority does not name, publishes that it is passive and the epoch it read", async () => {
    // prepare
    const epoch = await makeActive(stack(), "standby");
    emf.clear();
    const { handler } = await import("@eo/functions/cron/resolver");
    // act
    const report = await handler();
    // assess
    expect(report).toEqual({ passive: true });
    expect(values("RegionActive")).toEqual([0]);
    expect(values("AuthorityEpoch")).toEqual([epoch]);
    expect(values("UnknownOldestAgeS")).toEqual([]);
  });
});

describe("the events worker", () => {
  it("counts a failed receive, and the last one as a DLQ arrival", async () => {
    // prepare: a message that is no event, received once and then for the last time
    const { handler } = await import("@eo/functions/queue/notify-worker");
    const { maxReceiveCount } = await import("@eo/core");
    const record = (receives: number) =>
      ({
        Records: [
          {
            messageId: `m-${receives}`,
            body: "not an event",
            attributes: { ApproximateReceiveCount: String(receives), MessageGroupId: "g1" },
            eventSource: "aws:sqs",
          },
        ],
      }) as unknown as SQSEvent;
    // act
    await handler(record(1), context);
    await handler(record(maxReceiveCount()), context);
    // assess
    expect(values("WorkerFailures")).toEqual([1, 1]);
    expect(values("DlqArrivals")).toEqual([1]);
  });
});

describe("the outbox relay", () => {
  it("counts a batch it could not publish (the stream retries it)", async () => {
    // prepare: the events queue refuses one send (an SQS outage, which the emulator cannot be made to have)
    const { SqsEventPublisher } = await import("@eo/core");
    const refuse = vi
      .spyOn(SqsEventPublisher.prototype, "publish")
      .mockRejectedValueOnce(Object.assign(new Error("Service Unavailable"), { name: "ServiceUnavailable" }));
    const token = await api().token("u-relay");
    emf.clear();
    // act: the stack's relay picks the payment's event from the stream
    await api().pay(token, newKey(), order42());
    await vi.waitFor(() => expect(emf.of("RelayFailures").length).toBeGreaterThan(0), { timeout: 15_000 });
    // assess
    refuse.mockRestore();
    expect(values("RelayFailures")).toEqual([1]);
  });
});
