import type { Message, MessageAttributeValue } from "@aws-sdk/client-sqs";
import type { SQSMessageAttribute, SQSMessageAttributes, SQSRecord, SQSRecordAttributes } from "aws-lambda";

/** The queue the records come from, as Lambda names it in every record. */
export interface QueueSource {
  queueArn: string;
  region: string;
}

/** Turns a message as ReceiveMessage returns it into the record a Lambda function receives in an SQSEvent. */
export function toSqsRecord(message: Message, source: QueueSource, receivedAt: number): SQSRecord {
  const record: SQSRecord = {
    messageId: required(message.MessageId, "MessageId"),
    receiptHandle: required(message.ReceiptHandle, "ReceiptHandle"),
    body: message.Body ?? "",
    attributes: toAttributes(message.Attributes ?? {}, receivedAt),
    messageAttributes: toMessageAttributes(message.MessageAttributes ?? {}),
    md5OfBody: message.MD5OfBody ?? "",
    eventSource: "aws:sqs",
    eventSourceARN: source.queueArn,
    awsRegion: source.region,
  };
  if (message.MD5OfMessageAttributes) record.md5OfMessageAttributes = message.MD5OfMessageAttributes;
  return record;
}

function toAttributes(attrs: Partial<Record<string, string>>, receivedAt: number): SQSRecordAttributes {
  const { ApproximateReceiveCount, SentTimestamp, SenderId, ApproximateFirstReceiveTimestamp, ...rest } =
    attrs;
  const out: SQSRecordAttributes = {
    ApproximateReceiveCount: ApproximateReceiveCount ?? "1",
    SentTimestamp: SentTimestamp ?? String(receivedAt),
    SenderId: SenderId ?? "000000000000",
    // An emulator that omits it on a first receive means "now", which is what the attribute says.
    ApproximateFirstReceiveTimestamp: ApproximateFirstReceiveTimestamp ?? String(receivedAt),
  };
  // FIFO ids, SequenceNumber, AWSTraceHeader and the rest pass through as SQS gave them.
  for (const [name, value] of Object.entries(rest)) {
    if (value !== undefined) (out as unknown as Record<string, string>)[name] = value;
  }
  return out;
}

function toMessageAttributes(attrs: Record<string, MessageAttributeValue>): SQSMessageAttributes {
  const out: SQSMessageAttributes = {};
  for (const [name, v] of Object.entries(attrs)) {
    // Lambda always sends the two (reserved, unused) list fields as empty arrays.
    const attr: SQSMessageAttribute = {
      dataType: v.DataType ?? "String",
      stringListValues: [],
      binaryListValues: [],
    };
    if (v.StringValue !== undefined) attr.stringValue = v.StringValue;
    if (v.BinaryValue !== undefined) attr.binaryValue = Buffer.from(v.BinaryValue).toString("base64");
    out[name] = attr;
  }
  return out;
}

function required(value: string | undefined, field: string): string {
  if (value === undefined) throw new Error(`ReceiveMessage returned a message without ${field}`);
  return value;
}
