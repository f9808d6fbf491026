import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  PurgeQueueCommand,
  QueueDoesNotExist,
  SendMessageCommand,
  SetQueueAttributesCommand,
} from "@aws-sdk/client-sqs";
import { describe, expect, it } from "vitest";
import { fifoQueue, messagingWorld, rejection } from "./support/messaging-world";

describe("queues", () => {
  it("answers the same URL for a CreateQueue repeated with the same attributes, and refuses other attributes", async () => {
    const { sqs } = messagingWorld();
    const create = (vis: string) =>
      sqs.send(new CreateQueueCommand({ QueueName: "q", Attributes: { VisibilityTimeout: vis } }));
    const first = await create("30");

    const again = await create("30");
    const other = await rejection(create("60"));

    expect(again.QueueUrl).toBe(first.QueueUrl);
    expect(other.name).toBe("QueueNameExists");
  });

  it("finds a queue's URL by name, and answers QueueDoesNotExist (the SDK's class) for an unknown one", async () => {
    const { sqs } = messagingWorld();
    const { url } = await fifoQueue(sqs, "named");

    const found = await sqs.send(new GetQueueUrlCommand({ QueueName: "named.fifo" }));
    const missing = await rejection(sqs.send(new GetQueueUrlCommand({ QueueName: "nope" })));

    expect(found.QueueUrl).toBe(url);
    expect(missing).toBeInstanceOf(QueueDoesNotExist);
    expect(missing.$metadata?.httpStatusCode).toBe(400);
  });

  it("reports the attributes the project's scripts read, and applies SetQueueAttributes", async () => {
    const { sqs } = messagingWorld();
    const { url, dlqUrl } = await fifoQueue(sqs, "attrs", { DeduplicationScope: "messageGroup" }, 5);
    await sqs.send(
      new SetQueueAttributesCommand({ QueueUrl: url, Attributes: { VisibilityTimeout: "180" } }),
    );

    const { Attributes: a = {} } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["All"] }),
    );
    const dlqArn = (
      await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ["QueueArn"] }))
    ).Attributes?.QueueArn;

    expect(a).toMatchObject({
      FifoQueue: "true",
      VisibilityTimeout: "180",
      DeduplicationScope: "messageGroup",
    });
    expect(JSON.parse(a.RedrivePolicy ?? "{}")).toEqual({ deadLetterTargetArn: dlqArn, maxReceiveCount: 5 });
  });

  it("refuses a redrive policy naming a missing queue or a queue of the other type", async () => {
    const { sqs, sqsModel } = messagingWorld();
    const standard = await sqs.send(new CreateQueueCommand({ QueueName: "plain" }));
    const arn = sqsModel.getQueueAttributes(standard.QueueUrl as string, ["QueueArn"]).QueueArn;
    const fifoWith = (target: string) =>
      sqs.send(
        new CreateQueueCommand({
          QueueName: "src.fifo",
          Attributes: {
            FifoQueue: "true",
            RedrivePolicy: JSON.stringify({ deadLetterTargetArn: target, maxReceiveCount: 3 }),
          },
        }),
      );

    const missing = await rejection(fifoWith("arn:aws:sqs:us-east-1:000000000000:none.fifo"));
    const mixed = await rejection(fifoWith(arn as string));

    expect(missing.message).toContain("Dead letter target does not exist");
    expect(mixed.message).toContain("same type of queue");
  });

  it("purges every message, and refuses a second purge within 60 seconds", async () => {
    const { sqs, sqsModel, clock } = messagingWorld();
    const { url } = await fifoQueue(sqs, "purge");
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: url,
        MessageBody: "x",
        MessageGroupId: "g",
        MessageDeduplicationId: "x",
      }),
    );

    await sqs.send(new PurgeQueueCommand({ QueueUrl: url }));
    const soon = await rejection(sqs.send(new PurgeQueueCommand({ QueueUrl: url })));
    clock.advance(60_000);
    await sqs.send(new PurgeQueueCommand({ QueueUrl: url }));

    expect(sqsModel.peek(url)).toEqual([]);
    expect(soon.name).toBe("PurgeQueueInProgress");
  });

  it("refuses a FIFO queue name without .fifo, as SQS does", async () => {
    const { sqs } = messagingWorld();

    const err = await rejection(
      sqs.send(new CreateQueueCommand({ QueueName: "nofifo", Attributes: { FifoQueue: "true" } })),
    );

    expect(err.name).toBe("InvalidParameterValue");
  });
});
