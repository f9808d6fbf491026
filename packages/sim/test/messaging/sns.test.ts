import {
  CreatePlatformApplicationCommand,
  CreateTopicCommand,
  EndpointDisabledException,
  NotFoundException,
  PublishBatchCommand,
  PublishCommand,
  SetEndpointAttributesCommand,
  SubscribeCommand,
} from "@aws-sdk/client-sns";
import { ReceiveMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { SnsPushEndpoints, SnsPushSender } from "@eo/core";
import { describe, expect, it } from "vitest";
import { fifoQueue, messagingWorld, rejection } from "./support/messaging-world";

const bodies = async (sqs: SQSClient, url: string) =>
  (
    await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, MessageAttributeNames: ["All"] }),
    )
  ).Messages ?? [];

describe("SNS topics fan out to model queues", () => {
  it("delivers one publish to every SQS subscription: the JSON notification, or the raw message", async () => {
    const { sqs, sns, sqsModel, snsModel } = messagingWorld();
    const wrapped = sqsModel.createQueue("wrapped");
    const raw = sqsModel.createQueue("raw");
    const arnOf = (url: string) => sqsModel.getQueueAttributes(url, ["QueueArn"]).QueueArn as string;
    const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: "payments" }));
    await sns.send(new SubscribeCommand({ TopicArn, Protocol: "sqs", Endpoint: arnOf(wrapped) }));
    await sns.send(
      new SubscribeCommand({
        TopicArn,
        Protocol: "sqs",
        Endpoint: arnOf(raw),
        Attributes: { RawMessageDelivery: "true" },
      }),
    );

    const { MessageId } = await sns.send(
      new PublishCommand({
        TopicArn,
        Message: "hello",
        Subject: "s",
        MessageAttributes: { kind: { DataType: "String", StringValue: "k1" } },
      }),
    );

    const [w] = await bodies(sqs, wrapped);
    const [r] = await bodies(sqs, raw);
    expect(JSON.parse(w?.Body ?? "{}")).toMatchObject({
      Type: "Notification",
      MessageId,
      TopicArn,
      Subject: "s",
      Message: "hello",
      MessageAttributes: { kind: { Type: "String", Value: "k1" } },
    });
    expect(r?.Body).toBe("hello");
    expect(r?.MessageAttributes?.kind?.StringValue).toBe("k1");
    expect(snsModel.deliveries().map((d) => d.protocol)).toEqual(["sqs", "sqs"]);
  });

  it("carries a FIFO topic's group and dedup id into a FIFO queue, and drops a repeat inside 5 minutes", async () => {
    const { sqs, sns, sqsModel } = messagingWorld();
    const { url } = await fifoQueue(sqs, "fifo-sub");
    const { TopicArn } = await sns.send(
      new CreateTopicCommand({ Name: "t.fifo", Attributes: { FifoTopic: "true" } }),
    );
    const queueArn = sqsModel.getQueueAttributes(url, ["QueueArn"]).QueueArn;
    await sns.send(new SubscribeCommand({ TopicArn, Protocol: "sqs", Endpoint: queueArn }));
    const publish = () =>
      sns.send(
        new PublishCommand({ TopicArn, Message: "m", MessageGroupId: "g1", MessageDeduplicationId: "d1" }),
      );

    const first = await publish();
    const repeat = await publish();

    expect(repeat.MessageId).toBe(first.MessageId);
    expect(first.SequenceNumber).toBeDefined();
    expect(sqsModel.peek(url).map((m) => [m.groupId, m.dedupId])).toEqual([["g1", "d1"]]);
  });

  it("records deliveries to protocols it does not carry, and reports PublishBatch failures entry by entry", async () => {
    const { sns, snsModel } = messagingWorld();
    const { TopicArn } = await sns.send(
      new CreateTopicCommand({ Name: "t2.fifo", Attributes: { FifoTopic: "true" } }),
    );
    await sns.send(
      new SubscribeCommand({
        TopicArn,
        Protocol: "lambda",
        Endpoint: "arn:aws:lambda:us-east-1:0:function:f",
      }),
    );

    const out = await sns.send(
      new PublishBatchCommand({
        TopicArn,
        PublishBatchRequestEntries: [
          { Id: "ok", Message: "a", MessageGroupId: "g", MessageDeduplicationId: "a" },
          { Id: "no-group", Message: "b", MessageDeduplicationId: "b" },
        ],
      }),
    );

    expect(out.Successful?.map((s) => s.Id)).toEqual(["ok"]);
    expect(out.Failed?.map((f) => [f.Id, f.Code, f.SenderFault])).toEqual([
      ["no-group", "InvalidParameter", true],
    ]);
    expect(snsModel.deliveries().map((d) => [d.protocol, JSON.parse(d.body).Message])).toEqual([
      ["lambda", "a"],
    ]);
  });
});

describe("SNS mobile push through the project's adapters", () => {
  async function pushWorld() {
    const w = messagingWorld();
    const app = await w.sns.send(
      new CreatePlatformApplicationCommand({ Name: "apns", Platform: "APNS_SANDBOX", Attributes: {} }),
    );
    const endpoints = new SnsPushEndpoints(w.sns, { apns: app.PlatformApplicationArn, fcm: undefined });
    return { ...w, endpoints, sender: new SnsPushSender(w.sns) };
  }

  it("registers a token, takes it over for another caller, and records a push with its collapse id", async () => {
    const { endpoints, sender, snsModel } = await pushWorld();
    const first = await endpoints.ensure("apns", "tok-1", "alice");

    const taken = await endpoints.ensure("apns", "tok-1", "bob");
    await sender.publish(taken.arn, "apns", { title: "Paid", body: "10 EUR", replaceId: "pay-1" });

    expect(taken).toEqual({ arn: first.arn, previousOwner: "alice" });
    expect(snsModel.pushes()).toEqual([
      expect.objectContaining({
        endpointArn: first.arn,
        token: "tok-1",
        attributes: expect.objectContaining({ "AWS.SNS.MOBILE.APNS.COLLAPSE_ID": "pay-1" }),
      }),
    ]);
    expect(JSON.parse(snsModel.pushes()[0]?.payload ?? "{}").aps.alert.title).toBe("Paid");
  });

  it("refuses a push to a disabled endpoint (EndpointDisabled) and to a deleted one (NotFound)", async () => {
    const { endpoints, sender, sns } = await pushWorld();
    const { arn } = await endpoints.ensure("apns", "tok-2", "carol");
    await sns.send(new SetEndpointAttributesCommand({ EndpointArn: arn, Attributes: { Enabled: "false" } }));
    const message = { title: "t", body: "b", replaceId: "r" };

    const disabled = await rejection(sender.publish(arn, "apns", message));
    await endpoints.remove(arn);
    const gone = await rejection(sender.publish(arn, "apns", message));

    expect(disabled).toBeInstanceOf(EndpointDisabledException);
    expect(gone).toBeInstanceOf(NotFoundException);
  });
});
