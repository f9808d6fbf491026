import type { SnsAttribute } from "./envelope";
import {
  batchEntryIdsNotDistinct,
  emptyBatchRequest,
  invalidBatchEntryId,
  SnsError,
  tooManyEntries,
} from "./errors";
import type { PublishInput, SnsModel } from "./model";
import { child, entriesXml, list, map, type QueryNode, stringMap, text, xml } from "./query";

/** An operation: reads the query tree, answers the inner XML of `<{Action}Result>`. */
type Operation = (model: SnsModel, p: QueryNode) => string;

function attributesIn(p: QueryNode): Record<string, SnsAttribute> {
  const out: Record<string, SnsAttribute> = {};
  for (const [name, v] of Object.entries(map(p, "MessageAttributes", "Name", "Value"))) {
    if (typeof v !== "object") continue;
    const binary = text(v, "BinaryValue");
    out[name] = {
      DataType: text(v, "DataType") ?? "String",
      ...(text(v, "StringValue") !== undefined ? { StringValue: text(v, "StringValue") } : {}),
      ...(binary !== undefined ? { BinaryValue: Buffer.from(binary, "base64") } : {}),
    };
  }
  return out;
}

function publishInput(p: QueryNode, topicArn?: string): PublishInput {
  return {
    TopicArn: topicArn ?? text(p, "TopicArn"),
    TargetArn: text(p, "TargetArn"),
    PhoneNumber: text(p, "PhoneNumber"),
    Message: text(p, "Message"),
    Subject: text(p, "Subject"),
    MessageStructure: text(p, "MessageStructure"),
    MessageAttributes: attributesIn(p),
    MessageGroupId: text(p, "MessageGroupId"),
    MessageDeduplicationId: text(p, "MessageDeduplicationId"),
  };
}

function publishBatch(model: SnsModel, p: QueryNode): string {
  const entries = list(p, "PublishBatchRequestEntries");
  if (entries.length === 0) throw emptyBatchRequest();
  if (entries.length > 10) throw tooManyEntries(entries.length);
  const ids = entries.map((e) => text(e, "Id") ?? "");
  if (ids.some((id) => !/^[A-Za-z0-9_-]{1,80}$/.test(id))) throw invalidBatchEntryId();
  if (new Set(ids).size !== ids.length) throw batchEntryIdsNotDistinct();
  const successful: unknown[] = [];
  const failed: unknown[] = [];
  for (const [i, e] of entries.entries()) {
    try {
      successful.push({ Id: ids[i], ...model.publish(publishInput(e, text(p, "TopicArn"))) });
    } catch (err) {
      if (!(err instanceof SnsError) || err.code === "ModelUnsupportedException") throw err;
      failed.push({ Id: ids[i], Code: err.code, Message: err.message, SenderFault: err.status < 500 });
    }
  }
  return xml({ Successful: successful, Failed: failed });
}

const arnOf = (p: QueryNode, key: string) => text(p, key) ?? "";

/** Runs an action whose result element is empty. */
function nothing(run: () => void): string {
  run();
  return "";
}

/** The SNS actions the model answers. */
export const SNS_OPERATIONS: Record<string, Operation> = {
  CreateTopic: (m, p) =>
    xml({ TopicArn: m.createTopic(arnOf(p, "Name"), stringMap(p, "Attributes"), list(p, "Tags")) }),
  DeleteTopic: (m, p) => nothing(() => m.deleteTopic(arnOf(p, "TopicArn"))),
  Subscribe: (m, p) =>
    xml({
      SubscriptionArn: m.subscribe(
        arnOf(p, "TopicArn"),
        arnOf(p, "Protocol"),
        arnOf(p, "Endpoint"),
        stringMap(p, "Attributes"),
      ),
    }),
  Unsubscribe: (m, p) => nothing(() => m.unsubscribe(arnOf(p, "SubscriptionArn"))),
  ListSubscriptionsByTopic: (m, p) =>
    xml({
      Subscriptions: m.subscriptionsOf(arnOf(p, "TopicArn")).map((s) => ({
        SubscriptionArn: s.arn,
        Owner: m.account,
        Protocol: s.protocol,
        Endpoint: s.endpoint,
        TopicArn: s.topicArn,
      })),
    }),
  Publish: (m, p) => xml(m.publish(publishInput(p))),
  PublishBatch: publishBatch,
  CreatePlatformApplication: (m, p) =>
    xml({
      PlatformApplicationArn: m.platform.createApplication(
        arnOf(p, "Name"),
        arnOf(p, "Platform"),
        stringMap(p, "Attributes"),
      ),
    }),
  CreatePlatformEndpoint: (m, p) =>
    xml({
      EndpointArn: m.platform.createEndpoint(
        arnOf(p, "PlatformApplicationArn"),
        arnOf(p, "Token"),
        text(p, "CustomUserData"),
        stringMap(p, "Attributes"),
      ),
    }),
  GetEndpointAttributes: (m, p) =>
    `<Attributes>${entriesXml(m.platform.attributes(arnOf(p, "EndpointArn")))}</Attributes>`,
  SetEndpointAttributes: (m, p) =>
    nothing(() => m.platform.setAttributes(arnOf(p, "EndpointArn"), stringMap(p, "Attributes"))),
  DeleteEndpoint: (m, p) => nothing(() => m.platform.delete(arnOf(p, "EndpointArn"))),
};

/** True when the parameter tree has a child of that name (used to refuse parameters the model ignores). */
export function has(p: QueryNode, key: string): boolean {
  return text(p, key) !== undefined || child(p, key) !== undefined;
}
