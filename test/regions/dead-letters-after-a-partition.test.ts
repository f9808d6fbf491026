import { randomUUID } from "node:crypto";
import { GetQueueAttributesCommand, SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { DEAD_LETTER_ROUNDS, MAX_DEAD_LETTER_ROUNDS, type PaymentEvent } from "../../packages/core/src";
import { LOCAL_CREDENTIALS } from "../../packages/local/src/stack/regions";
import { ApiClient } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";
import { succeededEvent } from "../support/payment-events";
import { eventually } from "../support/tables";

// A worker that cannot read the authority refuses every delivery, so a partition longer than its five receives
// leaves the event in its own Region's events DLQ (the chaos regression event-refused-in-a-partition-left-in-the-dlq
// reaches it through a real partition). Here the event is put where the partition leaves it, in the DLQ of the
// Region the authority names active: the primary.
const stack = useLocalStack({ standby: false });
const api = () => new ApiClient(stack().apiUrl);
let sqs: SQSClient | undefined;
const sqsOf = () => {
  sqs ??= new SQSClient({
    endpoint: stack().emulators.endpoints.sqs,
    region: stack().emulators.regions.primary.region,
    credentials: LOCAL_CREDENTIALS,
  });
  return sqs;
};
const dlqUrl = () => stack().emulators.regions.primary.queues.eventsDlq;

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_ACTIVE_KEEPS_DEAD_LETTERS;
});
afterAll(() => sqs?.destroy());

function eventFor(merchant: string, amount: number): PaymentEvent {
  return succeededEvent(`pay_${randomUUID().replaceAll("-", "")}`, merchant, amount);
}

async function leaveInDlq(event: PaymentEvent, rounds = 0): Promise<void> {
  await sqsOf().send(
    new SendMessageCommand({
      QueueUrl: dlqUrl(),
      MessageBody: JSON.stringify(event),
      MessageGroupId: event.merchant_id,
      MessageDeduplicationId: `${event.event_id}:${randomUUID()}`,
      ...(rounds
        ? { MessageAttributes: { [DEAD_LETTER_ROUNDS]: { DataType: "Number", StringValue: String(rounds) } } }
        : {}),
    }),
  );
}

async function dlqDepth(): Promise<number> {
  const { Attributes: a } = await sqsOf().send(
    new GetQueueAttributesCommand({
      QueueUrl: dlqUrl(),
      AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
    }),
  );
  return Number(a?.ApproximateNumberOfMessages ?? 0) + Number(a?.ApproximateNumberOfMessagesNotVisible ?? 0);
}

const creditsOf = async (merchant: string) => (await api().local("GET", `/merchants/${merchant}`)).body;

describe("an event refused in a partition, in the DLQ of the Region active again", () => {
  it("is taken back to the Region's own queue by its sweep and credited once", async () => {
    // prepare
    const merchant = `m-${randomUUID()}`;
    await leaveInDlq(eventFor(merchant, 4200));
    // act
    const run = await api().local("POST", "/run/sweeps");
    // assess
    expect(run.body.result).toMatchObject({ dlq: { routed: 1, kept: 0, to: "own-queue" } });
    const credited = await eventually(
      async () => ((await creditsOf(merchant)).credits === 1 ? creditsOf(merchant) : undefined),
      15_000,
      "the credit of the routed dead letter",
    );
    expect(credited).toMatchObject({ credits: 1, balance: 4200 });
    expect(await dlqDepth()).toBe(0);
  }, 60_000);

  it("counterfactual: an active Region that keeps its dead letters leaves the event there, never credited", async () => {
    // prepare: the earlier rule, only a passive Region routes its DLQ
    process.env.EO_TEST_UNSAFE_ACTIVE_KEEPS_DEAD_LETTERS = "1";
    const merchant = `m-${randomUUID()}`;
    await leaveInDlq(eventFor(merchant, 4200));
    // act
    const run = await api().local("POST", "/run/sweeps");
    await new Promise((r) => setTimeout(r, 2_000));
    // assess
    expect(run.body.result).not.toHaveProperty("dlq");
    expect(await creditsOf(merchant)).toMatchObject({ credits: 0 });
    expect(await dlqDepth()).toBe(1);
    // the guard back on, the next sweep delivers it (and leaves the DLQ empty for the next test)
    delete process.env.EO_TEST_UNSAFE_ACTIVE_KEEPS_DEAD_LETTERS;
    await eventually(
      async () => {
        await api().local("POST", "/run/sweeps");
        return (await creditsOf(merchant)).credits === 1 ? true : undefined;
      },
      90_000,
      "the credit once the guard is back",
    );
  }, 120_000);

  it(`leaves an event out of its ${MAX_DEAD_LETTER_ROUNDS} rounds for a person and routes another merchant's`, async () => {
    // prepare: one event that already failed in the active Region after as many rounds as are allowed
    const poisoned = `m-${randomUUID()}`;
    const other = `m-${randomUUID()}`;
    await leaveInDlq(eventFor(poisoned, 100), MAX_DEAD_LETTER_ROUNDS);
    await leaveInDlq(eventFor(other, 300), 1);
    // act
    const run = await api().local("POST", "/run/sweeps");
    // assess
    expect(run.body.result).toMatchObject({ dlq: { routed: 1, kept: 1, to: "own-queue" } });
    await eventually(
      async () => ((await creditsOf(other)).credits === 1 ? true : undefined),
      15_000,
      "the other merchant's credit",
    );
    expect(await creditsOf(poisoned)).toMatchObject({ credits: 0 });
    expect(await dlqDepth()).toBe(1);
  }, 60_000);
});
