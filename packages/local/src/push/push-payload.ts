import type { Delivery } from "./device-screen";
import { SnsFault } from "./sns-query";

/** The platform of an SNS platform application, as it appears in its ARN. */
export type SnsPlatform = "APNS" | "APNS_SANDBOX" | "GCM";

/**
 * What a phone would show for a Publish: the platform's own payload from a MessageStructure=json message (else
 * `default`), with the collapse id from the APNs message attribute or the FCM tag.
 */
export function deliveryOf(
  platform: SnsPlatform,
  message: string,
  structure: string | null,
  attrs: Record<string, string>,
): Delivery {
  if (structure !== "json") return { title: "", body: message };
  const envelope = parseJson(message, "Message") as Record<string, unknown>;
  const own = envelope[platform];
  if (typeof own !== "string") {
    if (typeof envelope.default !== "string")
      throw new SnsFault(
        400,
        "InvalidParameter",
        "Invalid parameter: Message Structure - No default entry in JSON message body",
      );
    return { title: "", body: envelope.default };
  }
  return platform === "GCM" ? fcmDelivery(own) : apnsDelivery(own, attrs["AWS.SNS.MOBILE.APNS.COLLAPSE_ID"]);
}

function apnsDelivery(payload: string, collapseId: string | undefined): Delivery {
  const alert = (parseJson(payload, "APNS") as { aps?: { alert?: unknown } }).aps?.alert;
  const text =
    typeof alert === "string"
      ? { title: "", body: alert }
      : (alert as { title?: string; body?: string } | undefined);
  return {
    title: text?.title ?? "",
    body: text?.body ?? "",
    ...(collapseId ? { replaceId: collapseId } : {}),
  };
}

interface FcmNotification {
  title?: string;
  body?: string;
  tag?: string;
}
interface FcmMessage {
  notification?: FcmNotification;
  android?: { notification?: FcmNotification };
}

function fcmDelivery(payload: string): Delivery {
  const o = parseJson(payload, "GCM") as FcmMessage & { fcmV1Message?: { message?: FcmMessage } };
  // FCM HTTP v1 (fcmV1Message) or the legacy shape; the Android tag is the replace id.
  const message: FcmMessage = o.fcmV1Message?.message ?? o;
  const n: FcmNotification = { ...message.notification, ...message.android?.notification };
  const tag = typeof n.tag === "string" && n.tag !== "" ? n.tag : undefined;
  return { title: n.title ?? "", body: n.body ?? "", ...(tag ? { replaceId: tag } : {}) };
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new SnsFault(400, "InvalidParameter", `Invalid parameter: ${what} is not valid JSON`);
  }
}
