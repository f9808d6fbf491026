import {
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import { describe, expect, it } from "vitest";
import { messagingWorld, rejection } from "./support/messaging-world";

async function standardQueue(sqs: SQSClient, name: string, visibility = "30") {
  const url = (
    await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: { VisibilityTimeout: visibility } }))
  ).QueueUrl as string;
  await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "x" }));
  return url;
}

const receive = async (sqs: SQSClient, url: string, visibility?: number) =>
  (
    await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: url,
        VisibilityTimeout: visibility,
        MessageSystemAttributeNames: ["All"],
      }),
    )
  ).Messages ?? [];

describe("visibility timeout", () => {
  it("hides a received message for the queue's default timeout", async () => {
    const { sqs, clock } = messagingWorld();
    const url = await standardQueue(sqs, "default-vis", "20");
    await receive(sqs, url);

    clock.advance(19_999);
    const hidden = await receive(sqs, url);
    clock.advance(1);
    const back = await receive(sqs, url);

    expect(hidden).toEqual([]);
    expect(back).toHaveLength(1);
  });

  it("takes the receive's own VisibilityTimeout over the queue's", async () => {
    const { sqs, clock } = messagingWorld();
    const url = await standardQueue(sqs, "per-receive", "300");
    await receive(sqs, url, 5);

    clock.advance(5_000);

    expect(await receive(sqs, url)).toHaveLength(1);
  });

  it("ChangeMessageVisibility to 0 makes the message available at once", async () => {
    const { sqs } = messagingWorld();
    const url = await standardQueue(sqs, "release");
    const [m] = await receive(sqs, url);

    await sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: url,
        ReceiptHandle: m?.ReceiptHandle,
        VisibilityTimeout: 0,
      }),
    );

    expect(await receive(sqs, url)).toHaveLength(1);
  });

  it("ChangeMessageVisibility counts the new timeout from now", async () => {
    const { sqs, clock } = messagingWorld();
    const url = await standardQueue(sqs, "extend");
    const [m] = await receive(sqs, url);
    clock.advance(25_000);

    await sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: url,
        ReceiptHandle: m?.ReceiptHandle,
        VisibilityTimeout: 60,
      }),
    );
    clock.advance(59_999);
    const hidden = await receive(sqs, url);
    clock.advance(1);

    expect(hidden).toEqual([]);
    expect(await receive(sqs, url)).toHaveLength(1);
  });

  it("refuses ChangeMessageVisibility on a message that is no longer in flight", async () => {
    const { sqs, clock } = messagingWorld();
    const url = await standardQueue(sqs, "not-inflight");
    const [m] = await receive(sqs, url);
    clock.advance(30_000);

    const err = await rejection(
      sqs.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: url,
          ReceiptHandle: m?.ReceiptHandle,
          VisibilityTimeout: 10,
        }),
      ),
    );

    expect(err.name).toBe("MessageNotInflight");
  });

  it("refuses a visibility that would pass 12 hours from the receive", async () => {
    const { sqs, clock } = messagingWorld();
    const url = await standardQueue(sqs, "ceiling");
    const [m] = await receive(sqs, url, 43_200);
    clock.advance(1_000);

    const err = await rejection(
      sqs.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: url,
          ReceiptHandle: m?.ReceiptHandle,
          VisibilityTimeout: 43_200,
        }),
      ),
    );

    expect(err.name).toBe("InvalidParameterValue");
    expect(err.message).toContain("43200");
  });
});

describe("message and queue attributes", () => {
  it("reports ApproximateReceiveCount, SentTimestamp and ApproximateFirstReceiveTimestamp in virtual time", async () => {
    const { sqs, clock } = messagingWorld();
    const sentAt = clock.now();
    const url = await standardQueue(sqs, "attrs", "10");
    clock.advance(2_000);
    await receive(sqs, url);
    clock.advance(10_000);

    const [m] = await receive(sqs, url);

    expect(m?.Attributes).toMatchObject({
      ApproximateReceiveCount: "2",
      SentTimestamp: String(sentAt),
      ApproximateFirstReceiveTimestamp: String(sentAt + 2_000),
    });
  });

  it("counts visible and in-flight messages in GetQueueAttributes", async () => {
    const { sqs } = messagingWorld();
    const url = await standardQueue(sqs, "counts");
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "y" }));
    await receive(sqs, url);

    const out = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: url,
        AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
      }),
    );

    expect(out.Attributes).toEqual({
      ApproximateNumberOfMessages: "1",
      ApproximateNumberOfMessagesNotVisible: "1",
    });
  });
});
