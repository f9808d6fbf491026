import {
  CreateQueueCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import { describe, expect, it } from "vitest";
import { fifoQueue, messagingWorld, rejection } from "./support/messaging-world";

const receive = async (sqs: SQSClient, url: string) =>
  ((await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, VisibilityTimeout: 10 }))).Messages ?? [])[0];

describe("DeleteMessage with a stale receipt handle", () => {
  it("on a FIFO queue, refuses the handle of an earlier receive as expired and keeps the message", async () => {
    const { sqs, sqsModel, clock } = messagingWorld();
    const { url } = await fifoQueue(sqs, "stale-fifo");
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: url,
        MessageBody: "x",
        MessageGroupId: "g",
        MessageDeduplicationId: "d",
      }),
    );
    const first = await receive(sqs, url);
    clock.advance(10_000);
    const second = await receive(sqs, url);

    const err = await rejection(
      sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: first?.ReceiptHandle })),
    );

    expect(second?.ReceiptHandle).not.toBe(first?.ReceiptHandle);
    expect(err.name).toBe("InvalidParameterValue");
    expect(err.message).toContain("The receipt handle has expired");
    expect(sqsModel.peek(url)).toHaveLength(1);
  });

  it("on a FIFO queue, refuses the current handle once its visibility timeout has ended", async () => {
    const { sqs, sqsModel, clock } = messagingWorld();
    const { url } = await fifoQueue(sqs, "expired-fifo");
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: url,
        MessageBody: "x",
        MessageGroupId: "g",
        MessageDeduplicationId: "d",
      }),
    );
    const m = await receive(sqs, url);

    clock.advance(10_000);
    const err = await rejection(
      sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m?.ReceiptHandle })),
    );

    expect(err.message).toContain("The receipt handle has expired");
    expect(sqsModel.peek(url)).toHaveLength(1);
  });

  it("on a standard queue, succeeds with an earlier receive's handle but leaves the message", async () => {
    const { sqs, sqsModel, clock } = messagingWorld();
    const url = (await sqs.send(new CreateQueueCommand({ QueueName: "stale-standard" }))).QueueUrl as string;
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "x" }));
    const first = await receive(sqs, url);
    clock.advance(10_000);
    const second = await receive(sqs, url);

    await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: first?.ReceiptHandle }));
    const kept = sqsModel.peek(url).length;
    await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: second?.ReceiptHandle }));

    expect(kept).toBe(1);
    expect(sqsModel.peek(url)).toEqual([]);
  });

  it("refuses a handle it never issued, or one from another queue, as ReceiptHandleIsInvalid", async () => {
    const { sqs } = messagingWorld();
    const { url } = await fifoQueue(sqs, "one");
    const { url: other } = await fifoQueue(sqs, "two");
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: url,
        MessageBody: "x",
        MessageGroupId: "g",
        MessageDeduplicationId: "d",
      }),
    );
    const m = await receive(sqs, url);

    const made = await rejection(
      sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: "not-a-handle" })),
    );
    const foreign = await rejection(
      sqs.send(new DeleteMessageCommand({ QueueUrl: other, ReceiptHandle: m?.ReceiptHandle })),
    );

    expect(made.name).toBe("ReceiptHandleIsInvalid");
    expect(foreign.name).toBe("ReceiptHandleIsInvalid");
  });
});
