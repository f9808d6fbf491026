import { DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { describe, expect, it } from "vitest";
import { fifoQueue, messagingWorld, rejection } from "./support/messaging-world";

describe("FIFO deduplication interval", () => {
  it("answers a repeat within 5 minutes with the original MessageId and stores nothing", async () => {
    const { sqs, sqsModel, clock } = messagingWorld();
    const { url } = await fifoQueue(sqs, "dedup");
    const send = (body: string) =>
      sqs.send(
        new SendMessageCommand({
          QueueUrl: url,
          MessageBody: body,
          MessageGroupId: "m1",
          MessageDeduplicationId: "evt-1",
        }),
      );
    const first = await send("one");

    clock.advance(299_999);
    const repeat = await send("one again");

    expect(repeat.MessageId).toBe(first.MessageId);
    expect(repeat.SequenceNumber).toBe(first.SequenceNumber);
    expect(sqsModel.peek(url).map((m) => m.body)).toEqual(["one"]);
  });

  it("keeps dropping the repeat after the original was received and deleted", async () => {
    const { sqs, sqsModel } = messagingWorld();
    const { url } = await fifoQueue(sqs, "after-delete");
    const send = () =>
      sqs.send(
        new SendMessageCommand({
          QueueUrl: url,
          MessageBody: "x",
          MessageGroupId: "m1",
          MessageDeduplicationId: "evt-1",
        }),
      );
    const first = await send();
    const [m] = (await sqs.send(new ReceiveMessageCommand({ QueueUrl: url }))).Messages ?? [];
    await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m?.ReceiptHandle }));

    const repeat = await send();

    expect(repeat.MessageId).toBe(first.MessageId);
    expect(sqsModel.peek(url)).toEqual([]);
  });

  it("accepts the same deduplication id as a new message once the 5 minutes have passed", async () => {
    const { sqs, sqsModel, clock } = messagingWorld();
    const { url } = await fifoQueue(sqs, "window-end");
    const send = () =>
      sqs.send(
        new SendMessageCommand({
          QueueUrl: url,
          MessageBody: "x",
          MessageGroupId: "m1",
          MessageDeduplicationId: "evt-1",
        }),
      );
    const first = await send();

    clock.advance(300_000);
    const later = await send();

    expect(later.MessageId).not.toBe(first.MessageId);
    expect(sqsModel.peek(url)).toHaveLength(2);
  });

  it("deduplicates on the body's SHA-256 when content-based deduplication is on", async () => {
    const { sqs, sqsModel } = messagingWorld();
    const { url } = await fifoQueue(sqs, "content", { ContentBasedDeduplication: "true" });
    const send = (body: string) =>
      sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body, MessageGroupId: "m1" }));

    const a = await send("same body");
    const b = await send("same body");
    const c = await send("another body");

    expect(b.MessageId).toBe(a.MessageId);
    expect(c.MessageId).not.toBe(a.MessageId);
    expect(sqsModel.peek(url).map((m) => m.body)).toEqual(["same body", "another body"]);
  });

  it("refuses a send with neither a deduplication id nor content-based deduplication", async () => {
    const { sqs } = messagingWorld();
    const { url } = await fifoQueue(sqs, "no-dedup");

    const err = await rejection(
      sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "x", MessageGroupId: "m1" })),
    );

    expect(err.name).toBe("InvalidParameterValue");
    expect(err.message).toContain("ContentBasedDeduplication");
  });

  it("with DeduplicationScope messageGroup, takes the same id in another group as a new message", async () => {
    const { sqs, sqsModel } = messagingWorld();
    const { url } = await fifoQueue(sqs, "per-group", {
      DeduplicationScope: "messageGroup",
      FifoThroughputLimit: "perMessageGroupId",
    });
    const send = (group: string) =>
      sqs.send(
        new SendMessageCommand({
          QueueUrl: url,
          MessageBody: group,
          MessageGroupId: group,
          MessageDeduplicationId: "evt-1",
        }),
      );

    const a = await send("m1");
    const b = await send("m2");
    const again = await send("m1");

    expect(b.MessageId).not.toBe(a.MessageId);
    expect(again.MessageId).toBe(a.MessageId);
    expect(sqsModel.peek(url)).toHaveLength(2);
  });

  it("numbers the messages it stores with increasing SequenceNumbers", async () => {
    const { sqs } = messagingWorld();
    const { url } = await fifoQueue(sqs, "sequence");
    const numbers: bigint[] = [];

    for (const id of ["a", "b", "c"]) {
      const out = await sqs.send(
        new SendMessageCommand({
          QueueUrl: url,
          MessageBody: id,
          MessageGroupId: id,
          MessageDeduplicationId: id,
        }),
      );
      numbers.push(BigInt(out.SequenceNumber ?? "0"));
    }

    expect(numbers[0]).toBeGreaterThan(0n);
    expect(numbers[1]).toBeGreaterThan(numbers[0] as bigint);
    expect(numbers[2]).toBeGreaterThan(numbers[1] as bigint);
  });
});
