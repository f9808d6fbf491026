import { CreateQueueCommand, SendMessageCommand, ReceiveMessageCommand, DeleteMessageCommand, GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { it, expect } from "vitest";
import { SqsModel, modelSqsClient } from "/work/main/packages/sim/src/sqs/index";
it("smoke", async () => {
  let t = 1_700_000_000_000;
  const model = new SqsModel({ clock: { now: () => t } });
  const sqs = modelSqsClient(model);
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: "q.fifo", Attributes: { FifoQueue: "true" } }));
  const s = await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: "hi", MessageGroupId: "g", MessageDeduplicationId: "d", MessageAttributes: { a: { DataType: "String", StringValue: "x" }, b: { DataType: "Binary", BinaryValue: new Uint8Array([1,2]) } } }));
  console.log(s);
  const r = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MessageSystemAttributeNames: ["All"], MessageAttributeNames: ["All"] }));
  console.log(JSON.stringify(r.Messages));
  const err = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: QueueUrl + "x", AttributeNames: ["All"] })).catch((e) => e);
  console.log(err.name, err.message, err.constructor.name, err.$metadata);
  t += 40_000;
  const err2 = await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: r.Messages![0]!.ReceiptHandle })).catch((e) => e);
  console.log(err2.name, err2.message, err2.Code);
});
