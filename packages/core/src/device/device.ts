import { createHash } from "node:crypto";
import {
  DeviceId,
  type DeviceRequest,
  DeviceRequest as DeviceRequestSchema,
  MAX_BODY_BYTES,
} from "@eo/contract";
import { Refusal } from "../payment/payment-errors";
import { checkOrRefuse, readJsonBody } from "../payment/payment-request";

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
  /** The app installation that registered it, and with which counter (Part 5, versions from one counter). */
  installation_id?: string;
  counter?: number;
}

export type { DeviceRequest } from "@eo/contract";

/** The device id: derived from (caller, platform, token), so the same token registered again is the same device. */
export function deviceIdOf(caller: string, platform: Platform, token: string): string {
  return `dev_${createHash("sha256").update(`${caller}\u0000${platform}\u0000${token}`).digest("hex").slice(0, 24)}`;
}

/** Who holds a token now: the device its pointer names (one holder per platform and token). */
export interface TokenHolder {
  caller: string;
  device_id: string;
}

/** Keys hold the caller (`DEVICE#{caller}`), and DynamoDB keys stop at 2,048 bytes. */
const MAX_CALLER_BYTES = 1024;

/** Refuses a caller id (the token's sub) too long to key a device by. */
export function checkDeviceCaller(caller: string): string {
  if (Buffer.byteLength(caller, "utf8") > MAX_CALLER_BYTES)
    throw new Refusal("bad-request", `the token's sub is over ${MAX_CALLER_BYTES} bytes`);
  return caller;
}

/** Refuses a Content-Type other than JSON (none is read as JSON). */
export function checkJsonContentType(header: string | undefined): void {
  if (header === undefined || /^application\/([\w.+-]+\+)?json\s*(;.*)?$/i.test(header)) return;
  throw new Refusal("bad-request", `Content-Type must be application/json, not ${header.slice(0, 100)}`);
}

/** Parses the `{device_id}` of a path: `dev_` and 24 hex digits, as `POST /devices` answers it. */
export function parseDeviceId(raw: string | undefined): string {
  return checkOrRefuse(DeviceId, raw);
}

/** Refuses a body on a request that takes none (over 16 KiB: too large). */
export function checkNoBody(body: string | undefined): void {
  if (body === undefined || body === "") return;
  if (Buffer.byteLength(body, "utf8") > MAX_BODY_BYTES)
    throw new Refusal("too-large", `the body is over ${MAX_BODY_BYTES} bytes`);
  throw new Refusal("bad-request", "this request takes no body");
}

/** Parses and checks `{"platform": "apns" | "fcm", "token": "…"}`. */
export function parseDeviceBody(body: string | undefined): DeviceRequest {
  return checkOrRefuse(DeviceRequestSchema, readJsonBody(body, '{"platform": "apns", "token": "…"}'));
}
