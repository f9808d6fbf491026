import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from "@aws-sdk/client-sqs";
import type { SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Poller } from "../../src/pollers/poller";
import { startSqsPoller } from "../../src/pollers/sqs-poller";
import { LOCAL_CREDENTIALS } from "../../src/stack/regions";
import { type Emulators, startEmulators } from "../../src/stack/start-emulators";

let emu: Emulators;
let sqs: SQSClient;
const pollers: Poller[] = [];

beforeAll(async () => {
  emu = await startEmulators();
  sqs = new SQSClient({
    endpoint: emu.endpoints.sqs,
    region: emu.regions.primary.region,
    credentials: LOCAL_CREDENTIALS,
  });
}, 60_000);

afterAll(async () => {
  await Promise.all(pollers.map((p) => p.stop()));
  sqs?.destroy();
  await emu?.stop();
}, 30_000);

/**
 * Starts a poller on `queueUrl` that records every delivery and reports the items `fail` picks as failed.
 * Short polling (wait 0) keeps these tests quick: fauxqs only ends a long poll early for a new message, not for
 * one whose visibility timeout ran out.
 */
async function poll(queueUrl: string, fail: (r: SQSRecord) => boolean = () => false, waitTimeSeconds = 0) {
  const deliveries: Array<SQSRecord & { at: number }> = [];
  const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
    for (const r of event.Records) deliveries.push({ ...r, at: Date.now() });
    return { batchItemFailures: event.Records.filter(fail).map((r) => ({ itemIdentifier: r.messageId })) };
  };
  const { endpoints, regions } = emu;
  const poller = await startSqsPoller({
    name: "test-consumer",
    endpoint: endpoints.sqs,
    region: regions.primary.region,
    queueUrl,
    handler,
    waitTimeSeconds,
  });
  pollers.push(poller);
  return { poller, deliveries };
}

/** A FIFO queue with a 1 s visibility timeout and a redrive to its own FIFO DLQ after 3 receives. */
async function fastFifoWithDlq(name: string): Promise<{ queueUrl: string; dlqUrl: string }> {
  const dlq = await sqs.send(
    new CreateQueueCommand({ QueueName: `${name}-dlq.fifo`, Attributes: { FifoQueue: "true" } }),
  );
  const dlqArn = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ["QueueArn"] }),
  );
  const queue = await sqs.send(
    new CreateQueueCommand({
      QueueName: `${name}.fifo`,
      Attributes: {
        FifoQueue: "true",
        VisibilityTimeout: "1",
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: dlqArn.Attributes?.QueueArn,
          maxReceiveCount: 3,
        }),
      },
    }),
  );
  return { queueUrl: queue.QueueUrl ?? "", dlqUrl: dlq.QueueUrl ?? "" };
}

async function send(queueUrl: string, body: string, group: string, dedup = body): Promise<void> {
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: queueUrl,
      MessageBody: body,
      MessageGroupId: group,
      MessageDeduplicationId: dedup,
    }),
  );
}

async function messagesLeft(queueUrl: string): Promise<number> {
  const { Attributes: a } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["All"] }),
  );
  return Number(a?.ApproximateNumberOfMessages) + Number(a?.ApproximateNumberOfMessagesNotVisible);
}

function countBy(records: SQSRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of records) counts[r.body] = (counts[r.body] ?? 0) + 1;
  return counts;
}

describe("startSqsPoller", () => {
  it("delivers a FIFO message sent twice with one deduplication id once, as a Lambda SQS record", async () => {
    // prepare
    const queueUrl = emu.regions.primary.queues.events;
    await send(queueUrl, "first", "g-dedup", "dedup-1");
    await send(queueUrl, "second", "g-dedup", "dedup-1");

    // act
    const { poller, deliveries } = await poll(queueUrl, () => false, 1);
    await vi.waitFor(() => expect(deliveries).toHaveLength(1), { timeout: 5_000 });
    await poller.idle();

    // assess
    expect(deliveries).toHaveLength(1);
    const [record] = deliveries;
    expect(record).toMatchObject({
      body: "first",
      eventSource: "aws:sqs",
      eventSourceARN: expect.stringMatching(/^arn:aws:sqs:.*:primary-events\.fifo$/),
      awsRegion: emu.regions.primary.region,
      attributes: {
        MessageGroupId: "g-dedup",
        MessageDeduplicationId: "dedup-1",
        ApproximateReceiveCount: "1",
      },
    });
    expect(record?.md5OfBody).toMatch(/^[0-9a-f]{32}$/);
    expect(record?.attributes.SequenceNumber).toBeTruthy();
    expect(record?.attributes.SentTimestamp).toMatch(/^\d+$/);
    expect(await messagesLeft(queueUrl)).toBe(0);
    await poller.stop();
  }, 15_000);

  it("leaves a failed batch item to reappear after the visibility timeout and deletes the others", async () => {
    // prepare
    const { queueUrl } = await fastFifoWithDlq("partial");
    await send(queueUrl, "ok-1", "a");
    await send(queueUrl, "flaky", "b");
    await send(queueUrl, "ok-2", "c");
    const firstTry = (r: SQSRecord) => r.body === "flaky" && r.attributes.ApproximateReceiveCount === "1";

    // act
    const { poller, deliveries } = await poll(queueUrl, firstTry);
    await vi.waitFor(() => expect(countBy(deliveries).flaky).toBe(2), { timeout: 8_000, interval: 50 });
    await poller.idle();

    // assess
    expect(countBy(deliveries)).toEqual({ "ok-1": 1, "ok-2": 1, flaky: 2 });
    const flaky = deliveries.filter((d) => d.body === "flaky");
    expect(flaky.map((d) => d.attributes.ApproximateReceiveCount)).toEqual(["1", "2"]);
    expect((flaky[1]?.at ?? 0) - (flaky[0]?.at ?? 0)).toBeGreaterThanOrEqual(900);
    expect(await messagesLeft(queueUrl)).toBe(0);
    await poller.stop();
  }, 15_000);

  it("moves a poison message to the DLQ after maxReceiveCount, keeping its group and deduplication ids", async () => {
    // prepare
    const { queueUrl, dlqUrl } = await fastFifoWithDlq("poison");
    await send(queueUrl, "poison", "g-poison", "poison-dedup");
    await send(queueUrl, "fine", "g-fine");

    // act
    const { poller, deliveries } = await poll(queueUrl, (r) => r.body === "poison");
    const dead = await vi.waitFor(
      async () => {
        const out = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: dlqUrl,
            MessageSystemAttributeNames: ["All"],
            WaitTimeSeconds: 0,
          }),
        );
        const [message] = out.Messages ?? [];
        if (!message) throw new Error("nothing in the DLQ yet");
        return message;
      },
      { timeout: 15_000, interval: 200 },
    );
    await poller.idle();

    // assess
    expect(dead.Body).toBe("poison");
    expect(dead.Attributes).toMatchObject({
      MessageGroupId: "g-poison",
      MessageDeduplicationId: "poison-dedup",
    });
    const poison = deliveries.filter((d) => d.body === "poison");
    expect(poison.map((d) => d.attributes.ApproximateReceiveCount)).toEqual(["1", "2", "3"]);
    expect(countBy(deliveries).fine).toBe(1);
    expect(await messagesLeft(queueUrl)).toBe(0);
    await poller.stop();
  }, 20_000);

  it("deletes nothing when the handler throws", async () => {
    // prepare
    const { queueUrl } = await fastFifoWithDlq("throws");
    await send(queueUrl, "m1", "a");
    await send(queueUrl, "m2", "b");
    const calls: string[][] = [];
    const handler = async (event: SQSEvent) => {
      calls.push(event.Records.map((r) => `${r.body}#${r.attributes.ApproximateReceiveCount}`));
      if (calls.length === 1) throw new Error(`failing ${event.Records.length}`);
    };
    const { endpoints, regions } = emu;

    // act
    const poller = await startSqsPoller({
      name: "throws",
      endpoint: endpoints.sqs,
      region: regions.primary.region,
      queueUrl,
      handler,
      waitTimeSeconds: 0,
    });
    pollers.push(poller);
    await vi.waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(2), { timeout: 8_000, interval: 50 });
    await poller.idle();

    // assess
    expect(calls).toEqual([
      ["m1#1", "m2#1"],
      ["m1#2", "m2#2"],
    ]);
    expect(poller.healthy()).toBe(true);
    expect(await messagesLeft(queueUrl)).toBe(0);
    await poller.stop();
    expect(poller.healthy()).toBe(false);
  }, 15_000);
});
