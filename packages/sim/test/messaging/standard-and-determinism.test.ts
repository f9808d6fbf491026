import {
  CreateQueueCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import { SqsEventPublisher } from "@eo/core";
import { describe, expect, it } from "vitest";
import { fifoQueue, messagingWorld, rejection } from "./support/messaging-world";

describe("standard queue", () => {
  it("hides a message for its own DelaySeconds and counts it as delayed meanwhile", async () => {
    const { sqs, sqsModel, clock } = messagingWorld();
    const url = (await sqs.send(new CreateQueueCommand({ QueueName: "delayed" }))).QueueUrl as string;
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "x", DelaySeconds: 5 }));

    const during = (await sqs.send(new ReceiveMessageCommand({ QueueUrl: url }))).Messages ?? [];
    const delayed = sqsModel.getQueueAttributes(url, ["ApproximateNumberOfMessagesDelayed"]);
    clock.advance(5_000);
    const after = (await sqs.send(new ReceiveMessageCommand({ QueueUrl: url }))).Messages ?? [];

    expect(during).toEqual([]);
    expect(delayed).toEqual({ ApproximateNumberOfMessagesDelayed: "1" });
    expect(after).toHaveLength(1);
  });

  it("refuses a MessageDeduplicationId, which only FIFO queues take", async () => {
    const { sqs } = messagingWorld();
    const url = (await sqs.send(new CreateQueueCommand({ QueueName: "plain" }))).QueueUrl as string;

    const err = await rejection(
      sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "x", MessageDeduplicationId: "d" })),
    );

    expect(err.name).toBe("InvalidParameterValue");
  });
});

describe("the project's event publisher against the model", () => {
  it("gets the first message id back when the relay sends the same event again", async () => {
    const { sqs, sqsModel } = messagingWorld();
    const { url } = await fifoQueue(sqs, "events");
    const publisher = new SqsEventPublisher(sqs, url);
    const event = {
      type: "payment.succeeded" as const,
      event_id: "evt-1",
      payment_id: "pay-1",
      merchant_id: "m1",
      caller: "c1",
      amount: 100,
      currency: "EUR",
      occurred_at: 1,
    };

    const first = await publisher.publish(event);
    const again = await publisher.publish(event);
    const routed = await publisher.publish(event, { dedupId: "evt-1:dead-letter:1", deadLetterRounds: 1 });

    expect(again.messageId).toBe(first.messageId);
    expect(routed.messageId).not.toBe(first.messageId);
    expect(sqsModel.peek(url).map((m) => [m.groupId, m.dedupId])).toEqual([
      ["m1", "evt-1"],
      ["m1", "evt-1:dead-letter:1"],
    ]);
  });
});

describe("determinism", () => {
  async function history(): Promise<string> {
    const { sqs, clock } = messagingWorld();
    const { url } = await fifoQueue(sqs, "replay", { VisibilityTimeout: "5" });
    const lines: string[] = [];
    const send = (s: SQSClient, body: string) =>
      s.send(
        new SendMessageCommand({
          QueueUrl: url,
          MessageBody: body,
          MessageGroupId: body.slice(0, 1),
          MessageDeduplicationId: body,
        }),
      );
    for (const body of ["a1", "b1", "a2"]) lines.push(JSON.stringify(await send(sqs, body)));
    for (let i = 0; i < 3; i++) {
      const out = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: url,
          MaxNumberOfMessages: 2,
          MessageSystemAttributeNames: ["All"],
        }),
      );
      lines.push(JSON.stringify(out.Messages));
      clock.advance(5_000);
    }
    return lines.join("\n").replace(/"requestId":"[^"]*"/g, "");
  }

  it("gives the same ids, receipt handles and attributes on every run", async () => {
    const first = await history();
    const second = await history();

    expect(second).toBe(first);
    expect(first).toContain("ReceiptHandle");
  });
});
