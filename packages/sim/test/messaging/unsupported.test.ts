import { GetAccountCommand, SendEmailCommand } from "@aws-sdk/client-sesv2";
import {
  CreateTopicCommand,
  GetTopicAttributesCommand,
  PublishCommand,
  SubscribeCommand,
} from "@aws-sdk/client-sns";
import {
  CreateQueueCommand,
  ListQueuesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  TagQueueCommand,
} from "@aws-sdk/client-sqs";
import { describe, expect, it } from "vitest";
import { fifoQueue, messagingWorld, rejection } from "./support/messaging-world";

/** Every refusal has one name, so a caller (or a checker) can tell a model gap from a service error. */
function expectUnsupported(err: Error, what: string | RegExp): void {
  expect(err.name).toBe("ModelUnsupportedException");
  expect(err.message).toMatch(what);
}

describe("SQS: what the model does not implement is refused by name", () => {
  it("an operation it lacks (TagQueue)", async () => {
    const { sqs } = messagingWorld();
    const { url } = await fifoQueue(sqs, "q");

    expectUnsupported(
      await rejection(sqs.send(new TagQueueCommand({ QueueUrl: url, Tags: { a: "b" } }))),
      /TagQueue/,
    );
  });

  it("ReceiveRequestAttemptId on a receive", async () => {
    const { sqs } = messagingWorld();
    const { url } = await fifoQueue(sqs, "q");

    const err = await rejection(
      sqs.send(new ReceiveMessageCommand({ QueueUrl: url, ReceiveRequestAttemptId: "r1" })),
    );

    expectUnsupported(err, /ReceiveRequestAttemptId/);
  });

  it("an access policy on a queue", async () => {
    const { sqs } = messagingWorld();

    const err = await rejection(
      sqs.send(new CreateQueueCommand({ QueueName: "p", Attributes: { Policy: "{}" } })),
    );

    expectUnsupported(err, /Policy/);
  });

  it("tags on CreateQueue", async () => {
    const { sqs } = messagingWorld();

    expectUnsupported(
      await rejection(sqs.send(new CreateQueueCommand({ QueueName: "t", tags: { a: "b" } }))),
      /tags/,
    );
  });

  it("message system attributes (AWSTraceHeader) on a send", async () => {
    const { sqs } = messagingWorld();
    const { url } = await fifoQueue(sqs, "q");

    const err = await rejection(
      sqs.send(
        new SendMessageCommand({
          QueueUrl: url,
          MessageBody: "x",
          MessageGroupId: "g",
          MessageDeduplicationId: "d",
          MessageSystemAttributes: { AWSTraceHeader: { DataType: "String", StringValue: "Root=1" } },
        }),
      ),
    );

    expectUnsupported(err, /AWSTraceHeader/);
  });

  it("list values in a message attribute", async () => {
    const { sqs } = messagingWorld();
    const { url } = await fifoQueue(sqs, "q");

    const err = await rejection(
      sqs.send(
        new SendMessageCommand({
          QueueUrl: url,
          MessageBody: "x",
          MessageGroupId: "g",
          MessageDeduplicationId: "d",
          MessageAttributes: { a: { DataType: "String", StringListValues: ["x"] } },
        }),
      ),
    );

    expectUnsupported(err, /StringListValues/);
  });

  it("ListQueues pagination", async () => {
    const { sqs } = messagingWorld();

    expectUnsupported(await rejection(sqs.send(new ListQueuesCommand({ MaxResults: 5 }))), /pagination/);
  });
});

describe("SNS: what the model does not implement is refused by name", () => {
  it("an action it lacks (GetTopicAttributes)", async () => {
    const { sns } = messagingWorld();

    const err = await rejection(
      sns.send(new GetTopicAttributesCommand({ TopicArn: "arn:aws:sns:us-east-1:000000000000:t" })),
    );

    expectUnsupported(err, /GetTopicAttributes/);
  });

  it("a publish to a phone number (SMS)", async () => {
    const { sns } = messagingWorld();

    expectUnsupported(
      await rejection(sns.send(new PublishCommand({ PhoneNumber: "+15550100", Message: "m" }))),
      /SMS/,
    );
  });

  it("a filter policy on a subscription", async () => {
    const { sns } = messagingWorld();
    const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: "t" }));

    const err = await rejection(
      sns.send(
        new SubscribeCommand({
          TopicArn,
          Protocol: "lambda",
          Endpoint: "arn:aws:lambda:us-east-1:0:function:f",
          Attributes: { FilterPolicy: "{}" },
        }),
      ),
    );

    expectUnsupported(err, /FilterPolicy/);
  });

  it("tags on CreateTopic", async () => {
    const { sns } = messagingWorld();

    const err = await rejection(
      sns.send(new CreateTopicCommand({ Name: "t", Tags: [{ Key: "a", Value: "b" }] })),
    );

    expectUnsupported(err, /tags/);
  });

  it("a FIFO topic delivering to a standard queue", async () => {
    const { sns, sqsModel } = messagingWorld();
    const url = sqsModel.createQueue("plain");
    const { TopicArn } = await sns.send(
      new CreateTopicCommand({ Name: "f.fifo", Attributes: { FifoTopic: "true" } }),
    );

    const err = await rejection(
      sns.send(
        new SubscribeCommand({
          TopicArn,
          Protocol: "sqs",
          Endpoint: sqsModel.getQueueAttributes(url, ["QueueArn"]).QueueArn,
        }),
      ),
    );

    expectUnsupported(err, /FIFO topic delivering to a standard queue/);
  });
});

describe("SES: what the model does not implement is refused by name", () => {
  const mail = (content: object) =>
    new SendEmailCommand({
      FromEmailAddress: "a@b.c",
      Destination: { ToAddresses: ["d@e.f"] },
      Content: content,
    });

  it("raw MIME content", async () => {
    const { ses } = messagingWorld();

    expectUnsupported(await rejection(ses.send(mail({ Raw: { Data: new Uint8Array([1]) } }))), /Raw/);
  });

  it("template content", async () => {
    const { ses } = messagingWorld();

    expectUnsupported(await rejection(ses.send(mail({ Template: { TemplateName: "t" } }))), /Template/);
  });

  it("a route it lacks (GetAccount)", async () => {
    const { ses } = messagingWorld();

    expectUnsupported(await rejection(ses.send(new GetAccountCommand({}))), /GET \/v1\/account|route/);
  });
});
