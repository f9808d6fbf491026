import { checkBatch, checkBatchSize, eachEntry } from "./batch";
import { sqsUnsupported } from "./errors";
import { type AttributeValue, messageSize } from "./message";
import type { SqsModel } from "./model";
import type { ReceivedMessage, ReceiveInput } from "./receive";
import type { SendInput } from "./send";

type Json = Record<string, unknown>;
type Operation = (model: SqsModel, input: Json, signal?: AbortSignal) => Json | Promise<Json>;

interface WireAttribute {
  DataType: string;
  StringValue?: string;
  BinaryValue?: string;
  StringListValues?: unknown[];
  BinaryListValues?: unknown[];
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);

/** Message attributes from the wire (binary values arrive base64-encoded). */
function attributesIn(wire: unknown): Record<string, AttributeValue> | undefined {
  if (!wire) return undefined;
  const out: Record<string, AttributeValue> = {};
  for (const [name, v] of Object.entries(wire as Record<string, WireAttribute>)) {
    if (v.StringListValues?.length || v.BinaryListValues?.length)
      throw sqsUnsupported("StringListValues/BinaryListValues in message attributes");
    out[name] = {
      DataType: v.DataType,
      ...(v.StringValue !== undefined ? { StringValue: v.StringValue } : {}),
      ...(v.BinaryValue !== undefined ? { BinaryValue: Buffer.from(v.BinaryValue, "base64") } : {}),
    };
  }
  return out;
}

function attributesOut(attrs: Record<string, AttributeValue>): Record<string, WireAttribute> {
  const out: Record<string, WireAttribute> = {};
  for (const [name, a] of Object.entries(attrs))
    out[name] = {
      DataType: a.DataType,
      ...(a.StringValue !== undefined ? { StringValue: a.StringValue } : {}),
      ...(a.BinaryValue !== undefined ? { BinaryValue: Buffer.from(a.BinaryValue).toString("base64") } : {}),
    };
  return out;
}

function sendInput(e: Json): SendInput {
  return {
    MessageBody: str(e.MessageBody),
    DelaySeconds: num(e.DelaySeconds),
    MessageAttributes: attributesIn(e.MessageAttributes),
    MessageSystemAttributes: e.MessageSystemAttributes as Record<string, unknown> | undefined,
    MessageDeduplicationId: str(e.MessageDeduplicationId),
    MessageGroupId: str(e.MessageGroupId),
  };
}

function messageOut(m: ReceivedMessage): Json {
  return m.MessageAttributes ? { ...m, MessageAttributes: attributesOut(m.MessageAttributes) } : { ...m };
}

const url = (input: Json) => str(input.QueueUrl);

/** Runs an operation whose reply is empty. */
function empty(run: () => void): Json {
  run();
  return {};
}

/** The SQS operations the model answers, by their X-Amz-Target name. */
export const SQS_OPERATIONS: Record<string, Operation> = {
  CreateQueue: (m, i) => ({
    QueueUrl: m.createQueue(
      str(i.QueueName) ?? "",
      (i.Attributes as Record<string, string>) ?? {},
      i.tags as Record<string, string>,
    ),
  }),
  GetQueueUrl: (m, i) => ({ QueueUrl: m.getQueueUrl(str(i.QueueName) ?? "", str(i.QueueOwnerAWSAccountId)) }),
  ListQueues: (m, i) => {
    if (i.NextToken !== undefined || i.MaxResults !== undefined)
      throw sqsUnsupported("ListQueues pagination");
    return { QueueUrls: m.listQueues(str(i.QueueNamePrefix)) };
  },
  DeleteQueue: (m, i) => empty(() => m.deleteQueue(url(i) ?? "")),
  GetQueueAttributes: (m, i) => ({
    Attributes: m.getQueueAttributes(url(i) ?? "", (i.AttributeNames as string[]) ?? []),
  }),
  SetQueueAttributes: (m, i) =>
    empty(() => m.setQueueAttributes(url(i) ?? "", (i.Attributes as Record<string, string>) ?? {})),
  PurgeQueue: (m, i) => empty(() => m.purgeQueue(url(i) ?? "")),
  SendMessage: (m, i) => ({ ...m.sendMessage(url(i) ?? "", sendInput(i)) }),
  SendMessageBatch: (m, i) => {
    const q = m.queue(url(i));
    const entries = checkBatch(i.Entries as Json[]) as Array<Json & { Id: string }>;
    const inputs = entries.map((e) => ({ Id: e.Id, input: sendInput(e) }));
    checkBatchSize(
      inputs.reduce((n, e) => n + messageSize(e.input.MessageBody ?? "", e.input.MessageAttributes ?? {}), 0),
    );
    return { ...eachEntry(inputs, (e) => m.sendMessage(q.url, e.input)) };
  },
  ReceiveMessage: async (m, i, signal) => ({
    Messages: (await m.receiveMessage(url(i) ?? "", i as ReceiveInput, signal)).map(messageOut),
  }),
  DeleteMessage: (m, i) => empty(() => m.deleteMessage(url(i) ?? "", str(i.ReceiptHandle))),
  DeleteMessageBatch: (m, i) => {
    const q = m.queue(url(i));
    const entries = checkBatch(i.Entries as Json[]) as Array<Json & { Id: string }>;
    return { ...eachEntry(entries, (e) => empty(() => m.deleteMessage(q.url, str(e.ReceiptHandle)))) };
  },
  ChangeMessageVisibility: (m, i) =>
    empty(() => m.changeMessageVisibility(url(i) ?? "", str(i.ReceiptHandle), num(i.VisibilityTimeout))),
  ChangeMessageVisibilityBatch: (m, i) => {
    const q = m.queue(url(i));
    const entries = checkBatch(i.Entries as Json[]) as Array<Json & { Id: string }>;
    return {
      ...eachEntry(entries, (e) =>
        empty(() => m.changeMessageVisibility(q.url, str(e.ReceiptHandle), num(e.VisibilityTimeout))),
      ),
    };
  },
};
