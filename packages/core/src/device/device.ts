import { createHash } from "node:crypto";
import { Refusal } from "../payment/payment-errors";

/** The push platforms a device may register on. */
export type Platform = "apns" | "fcm";

/** A caller's registered device: one SNS platform endpoint per token. */
export interface Device {
  caller: string;
  device_id: string;
  platform: Platform;
  token: string;
  endpoint_arn: string;
  created_at: number;
}

/** The body of `POST /devices`. */
export interface DeviceRequest {
  platform: Platform;
  token: string;
}

/** The device id: derived from (caller, platform, token), so the same token registered again is the same device. */
export function deviceIdOf(caller: string, platform: Platform, token: string): string {
  return `dev_${createHash("sha256").update(`${caller}\u0000${platform}\u0000${token}`).digest("hex").slice(0, 24)}`;
}

const MAX_BODY = 16 * 1024;

/** Parses and checks `{"platform": "apns" | "fcm", "token": "…"}`. */
export function parseDeviceBody(body: string | undefined): DeviceRequest {
  if (body !== undefined && Buffer.byteLength(body, "utf8") > MAX_BODY)
    throw new Refusal("too-large", `the body is over ${MAX_BODY} bytes`);
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(body ?? "") as Record<string, unknown>;
  } catch {
    throw new Refusal("bad-request", 'the body must be JSON such as {"platform": "apns", "token": "…"}');
  }
  if (typeof o !== "object" || o === null || Array.isArray(o))
    throw new Refusal("bad-request", "the body must be a JSON object");
  if (o.platform !== "apns" && o.platform !== "fcm")
    throw new Refusal("bad-request", 'platform must be "apns" or "fcm"');
  const token = o.token;
  if (typeof token !== "string" || !/^[\x21-\x7e]{1,4096}$/.test(token)) {
    throw new Refusal("bad-request", "token must be 1 to 4096 printable characters without spaces");
  }
  return { platform: o.platform, token };
}
