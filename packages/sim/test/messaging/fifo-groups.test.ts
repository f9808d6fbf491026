import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import { describe, expect, it } from "vitest";
import { fifoQueue, messagingWorld, rejection } from "./support/messaging-world";

async function send(sqs: SQSClient, url: string, group: string, body: string) {
  return sqs.send(
    new SendMessageCommand({
      QueueUrl: url,
      MessageBody: body,
      MessageGroupId: group,
      MessageDeduplicationId: body,
    }),
  );
}

async function receive(sqs: SQSClient, url: string, max = 1) {
  const out = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: url,
      MaxNumberOfMessages: max,
      MessageSystemAttributeNames: ["All"],
    }),
  );
  return out.Messages ?? [];
}

describe("FIFO message group", () => {
  it("holds the group's next message while one is in flight", async () => {
    const { sqs } = messagingWorld();
    const { url } = await fifoQueue(sqs, "hold");
    await send(sqs, url, "m1", "a1");
    await send(sqs, url, "m1", "a2");

    const first = await receive(sqs, url);
    const second = await receive(sqs, url);

    expect(first.map((m) => m.Body)).toEqual(["a1"]);
    expect(second).toEqual([]);
  });

  it("delivers a group's messages in the order they were sent", async () => {
    const { sqs } = messagingWorld();
    const { url } = await fifoQueue(sqs, "order");
    for (const body of ["b1", "b2", "b3"]) await send(sqs, url, "m1", body);
    const seen: string[] = [];

    for (let i = 0; i < 3; i++) {
      const [m] = await receive(sqs, url);
      seen.push(m?.Body ?? "none");
      await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m?.ReceiptHandle }));
    }

    expect(seen).toEqual(["b1", "b2", "b3"]);
  });

  it("serves another group while one group is held", async () => {
    const { sqs } = messagingWorld();
    const { url } = await fifoQueue(sqs, "other-group");
    await send(sqs, url, "m1", "a1");
    await send(sqs, url, "m1", "a2");
    await send(sqs, url, "m2", "b1");

    await receive(sqs, url);
    const next = await receive(sqs, url);

    expect(next.map((m) => [m.Body, m.Attributes?.MessageGroupId])).toEqual([["b1", "m2"]]);
  });

  it("returns a group's messages together, then the next group's, up to MaxNumberOfMessages", async () => {
    const { sqs } = messagingWorld();
    const { url } = await fifoQueue(sqs, "together");
    await send(sqs, url, "m1", "a1");
    await send(sqs, url, "m2", "b1");
    await send(sqs, url, "m1", "a2");
    await send(sqs, url, "m2", "b2");

    const got = await receive(sqs, url, 3);

    expect(got.map((m) => m.Body)).toEqual(["a1", "a2", "b1"]);
  });

  it("frees the group when the in-flight message is deleted", async () => {
    const { sqs } = messagingWorld();
    const { url } = await fifoQueue(sqs, "freed");
    await send(sqs, url, "m1", "a1");
    await send(sqs, url, "m1", "a2");
    const [first] = await receive(sqs, url);

    await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: first?.ReceiptHandle }));
    const next = await receive(sqs, url);

    expect(next.map((m) => m.Body)).toEqual(["a2"]);
  });

  it("gives the same message again, first in its group, when its visibility timeout ends", async () => {
    const { sqs, clock } = messagingWorld();
    const { url } = await fifoQueue(sqs, "timeout", { VisibilityTimeout: "30" });
    await send(sqs, url, "m1", "a1");
    await send(sqs, url, "m1", "a2");
    await receive(sqs, url);

    clock.advance(29_999);
    const during = await receive(sqs, url);
    clock.advance(1);
    const after = await receive(sqs, url, 10);

    expect(during).toEqual([]);
    expect(after.map((m) => [m.Body, m.Attributes?.ApproximateReceiveCount])).toEqual([
      ["a1", "2"],
      ["a2", "1"],
    ]);
  });

  it("keeps the group held while any of its received messages is in flight, even one behind a released head", async () => {
    const { sqs } = messagingWorld();
    const { url } = await fifoQueue(sqs, "partial-release");
    await send(sqs, url, "m1", "a1");
    await send(sqs, url, "m1", "a2");
    const [a1] = await receive(sqs, url, 2);

    await sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: url,
        ReceiptHandle: a1?.ReceiptHandle,
        VisibilityTimeout: 0,
      }),
    );
    const held = await receive(sqs, url);

    expect(held).toEqual([]);
  });

  it("refuses MaxNumberOfMessages above 10 as SQS does", async () => {
    const { sqs } = messagingWorld();
    const { url } = await fifoQueue(sqs, "max");

    const err = await rejection(receive(sqs, url, 11));

    expect(err.name).toBe("InvalidParameterValue");
    expect(err.message).toContain("Must be between 1 and 10");
  });

  it("requires a MessageGroupId on a FIFO queue", async () => {
    const { sqs } = messagingWorld();
    const { url } = await fifoQueue(sqs, "no-group");

    const err = await rejection(
      sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "x", MessageDeduplicationId: "x" })),
    );

    expect(err.name).toBe("MissingParameter");
  });
});
