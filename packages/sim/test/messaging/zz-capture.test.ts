import { SNSClient, PublishCommand, PublishBatchCommand, CreateTopicCommand, SubscribeCommand, SetEndpointAttributesCommand } from "@aws-sdk/client-sns";
import { SESv2Client, SendEmailCommand } from "@aws-sdk/client-sesv2";
import { it } from "vitest";
it("capture", async () => {
  const handler = { handle: async (req: any) => { console.log(req.method, req.path, JSON.stringify(req.headers), String(req.body)); return { response: { statusCode: 200, headers: {}, body: new TextEncoder().encode("<X/>") } }; } };
  const sns = new SNSClient({ region: "us-east-1", credentials: { accessKeyId: "a", secretAccessKey: "b" }, requestHandler: handler as any, maxAttempts: 1 });
  for (const c of [
    new PublishCommand({ TopicArn: "arn:t", Message: "m", MessageAttributes: { a: { DataType: "String", StringValue: "x" }, b: { DataType: "Binary", BinaryValue: new Uint8Array([1]) } }, MessageGroupId: "g" }),
    new PublishBatchCommand({ TopicArn: "arn:t", PublishBatchRequestEntries: [{ Id: "1", Message: "m", MessageAttributes: { a: { DataType: "String", StringValue: "x" } } }] }),
    new CreateTopicCommand({ Name: "t", Attributes: { FifoTopic: "true" }, Tags: [{ Key: "k", Value: "v" }] }),
    new SetEndpointAttributesCommand({ EndpointArn: "e", Attributes: { Enabled: "true" } }),
  ]) await sns.send(c as any).catch((e) => console.log("ERR", e.name));
  const ses = new SESv2Client({ region: "us-east-1", credentials: { accessKeyId: "a", secretAccessKey: "b" }, requestHandler: handler as any, maxAttempts: 1 });
  await ses.send(new SendEmailCommand({ FromEmailAddress: "a@b", Destination: { ToAddresses: ["c@d"] }, Content: { Simple: { Subject: { Data: "s" }, Body: { Text: { Data: "t" } } } } })).catch((e) => console.log("ERR", e.name));
});
