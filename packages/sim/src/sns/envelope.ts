import { invalidParameter } from "./errors";

/** A message attribute as SNS carries it. */
export interface SnsAttribute {
  DataType: string;
  StringValue?: string;
  BinaryValue?: Uint8Array;
}

/** What one publish says, after validation: shared by every subscription it goes to. */
export interface Notification {
  messageId: string;
  topicArn: string;
  message: string;
  subject?: string;
  structure?: string;
  attributes: Record<string, SnsAttribute>;
  sequenceNumber?: string;
  at: number;
}

/** The text a protocol gets from a publish: for MessageStructure=json, its protocol key or `default`. */
export function messageFor(n: Notification, protocol: string): string {
  if (n.structure !== "json") return n.message;
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(n.message);
  } catch {
    throw invalidParameter("Message Structure - JSON message body failed to parse");
  }
  const value = parsed[protocol] ?? parsed.default;
  if (typeof value !== "string")
    throw invalidParameter("Message Structure - No default entry in JSON message body");
  return value;
}

/**
 * The JSON notification SNS writes into a queue when raw delivery is off (documented under "Amazon SNS message
 * and JSON formats"). The signature fields are placeholders: the model signs nothing.
 */
export function envelope(n: Notification, subscriptionArn: string): string {
  const attrs = Object.entries(n.attributes);
  return JSON.stringify({
    Type: "Notification",
    MessageId: n.messageId,
    ...(n.sequenceNumber ? { SequenceNumber: n.sequenceNumber } : {}),
    TopicArn: n.topicArn,
    ...(n.subject !== undefined ? { Subject: n.subject } : {}),
    Message: messageFor(n, "sqs"),
    Timestamp: new Date(n.at).toISOString(),
    SignatureVersion: "1",
    Signature: "MODEL-UNSIGNED",
    SigningCertURL: "https://sns.model.invalid/SimpleNotificationService.pem",
    UnsubscribeURL: `https://sns.model.invalid/?Action=Unsubscribe&SubscriptionArn=${subscriptionArn}`,
    ...(attrs.length > 0
      ? {
          MessageAttributes: Object.fromEntries(
            attrs.map(([k, a]) => [
              k,
              {
                Type: a.DataType,
                Value: a.BinaryValue ? Buffer.from(a.BinaryValue).toString("base64") : a.StringValue,
              },
            ]),
          ),
        }
      : {}),
  });
}
