import {
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
} from "@aws-sdk/client-sqs";
import { describe, expect, it } from "vitest";
import { fifoQueue, messagingWorld, rejection } from "./support/messaging-world";

describe("SendMessageBatch and DeleteMessageBatch", () => {
  it("sends the good entries and reports each bad one on its own", async () => {
    const { sqs, sqsModel } = messagingWorld();
    const { url } = await fifoQueue(sqs, "batch-send");

    const out = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: url,
        Entries: [
          { Id: "ok", MessageBody: "a", MessageGroupId: "g", MessageDeduplicationId: "a" },
          { Id: "no-group", MessageBody: "b", MessageDeduplicationId: "b" },
        ],
      }),
    );

    expect(out.Successful?.map((s) => s.Id)).toEqual(["ok"]);
    expect(out.Failed).toEqual([
      { Id: "no-group", SenderFault: true, Code: "MissingParameter", Message: expect.any(String) },
    ]);
    expect(sqsModel.peek(url).map((m) => m.body)).toEqual(["a"]);
  });

  it("deletes by receipt handle entry by entry, failing only the entry with a bad handle", async () => {
    const { sqs, sqsModel } = messagingWorld();
    const { url } = await fifoQueue(sqs, "batch-delete");
    for (const id of ["a", "b"])
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: url,
          MessageBody: id,
          MessageGroupId: "g",
          MessageDeduplicationId: id,
        }),
      );
    const got =
      (await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10 }))).Messages ?? [];

    const out = await sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: url,
        Entries: [
          ...got.map((m, i) => ({ Id: `m${i}`, ReceiptHandle: m.ReceiptHandle })),
          { Id: "bad", ReceiptHandle: "garbage" },
        ],
      }),
    );

    expect(out.Successful?.map((s) => s.Id)).toEqual(["m0", "m1"]);
    expect(out.Failed?.map((f) => [f.Id, f.Code])).toEqual([["bad", "ReceiptHandleIsInvalid"]]);
    expect(sqsModel.peek(url)).toEqual([]);
  });

  it("refuses a whole batch that is empty, too long, or repeats an id", async () => {
    const { sqs } = messagingWorld();
    const { url } = await fifoQueue(sqs, "batch-refused");
    const entry = (id: string) => ({
      Id: id,
      MessageBody: id,
      MessageGroupId: "g",
      MessageDeduplicationId: id,
    });

    const empty = await rejection(sqs.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: [] })));
    const many = await rejection(
      sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: url,
          Entries: Array.from({ length: 11 }, (_, i) => entry(`e${i}`)),
        }),
      ),
    );
    const twice = await rejection(
      sqs.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: [entry("x"), entry("x")] })),
    );

    expect([empty.name, many.name, twice.name]).toEqual([
      "EmptyBatchRequest",
      "TooManyEntriesInBatchRequest",
      "BatchEntryIdsNotDistinct",
    ]);
  });
});
