import { PublishCommand, type SNSClient } from "@aws-sdk/client-sns";
import type { Platform } from "../device/device";

/** What the phone shows. */
export interface PushMessage {
  title: string;
  body: string;
  /** The replace id; undefined only under the Branch N test switch. */
  replaceId?: string;
}

/** Sends one push to one device endpoint. */
export interface PushSender {
  /** Resolves once the provider accepted the push; throws the provider's error (see `snsPublishVerdict`). */
  publish(endpointArn: string, platform: Platform, message: PushMessage): Promise<void>;
}

/** The APNs collapse id attribute SNS maps onto the `apns-collapse-id` header. */
export const APNS_COLLAPSE_ID = "AWS.SNS.MOBILE.APNS.COLLAPSE_ID";

/**
 * SNS mobile push: Publish with TargetArn and a per-platform JSON message. The replace id travels as the APNs
 * collapse id and the FCM (HTTP v1) Android notification tag, so a repeat lands on top of the first (Part 7).
 */
export class SnsPushSender implements PushSender {
  constructor(private readonly sns: SNSClient) {}

  async publish(endpointArn: string, platform: Platform, m: PushMessage): Promise<void> {
    await this.sns.send(
      new PublishCommand({
        TargetArn: endpointArn,
        MessageStructure: "json",
        Message: JSON.stringify(platformMessage(platform, m)),
        MessageAttributes: {
          "AWS.SNS.MOBILE.APNS.PUSH_TYPE": { DataType: "String", StringValue: "alert" },
          ...(m.replaceId ? { [APNS_COLLAPSE_ID]: { DataType: "String", StringValue: m.replaceId } } : {}),
        },
      }),
    );
  }
}

/** The MessageStructure=json body: a default, and the payload for both APNs keys and for FCM ("GCM"). */
export function platformMessage(platform: Platform, m: PushMessage): Record<string, string> {
  const apns = JSON.stringify({ aps: { alert: { title: m.title, body: m.body }, sound: "default" } });
  const notification = { title: m.title, body: m.body };
  const android = { notification: { ...notification, ...(m.replaceId ? { tag: m.replaceId } : {}) } };
  const gcm = JSON.stringify({ fcmV1Message: { message: { notification, android } } });
  const out: Record<string, string> = { default: `${m.title}: ${m.body}` };
  if (platform === "apns") Object.assign(out, { APNS: apns, APNS_SANDBOX: apns });
  else out.GCM = gcm;
  return out;
}
