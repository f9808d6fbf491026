import { GetEndpointAttributesCommand, SNSClient } from "@aws-sdk/client-sns";
import { DynamoDeviceStore, documentClient, loadConfig } from "@eo/core";
import { LOCAL_CREDENTIALS } from "../../../packages/local/src/stack/regions";
import type { LocalStack } from "../../../packages/local/src/stack/start-stack";
import type { Buyer } from "../../async/support/async-stack";

/** An answer of the devices API: status, content type and the parsed body (empty for a 204). */
export interface DeviceReply {
  status: number;
  type: string | null;
  text: string;
  body: Record<string, unknown>;
}

/** Sends a request to the devices API as a phone would, with the buyer's token. */
export async function devicesApi(
  stack: LocalStack,
  b: Pick<Buyer, "token">,
  method: "POST" | "DELETE",
  path: string,
  opts: { body?: string; contentType?: string } = {},
): Promise<DeviceReply> {
  const headers: Record<string, string> = { authorization: `Bearer ${b.token}` };
  if (opts.contentType) headers["content-type"] = opts.contentType;
  const res = await fetch(`${stack.apiUrl}${path}`, { method, headers, body: opts.body });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { raw: text };
  }
  return { status: res.status, type: res.headers.get("content-type"), text, body };
}

/** `POST /devices` with a JSON body. */
export const postDevice = (stack: LocalStack, b: Pick<Buyer, "token">, platform: string, token: string) =>
  devicesApi(stack, b, "POST", "/devices", {
    body: JSON.stringify({ platform, token }),
    contentType: "application/json",
  });

/** `DELETE /devices/{device_id}`. */
export const deleteDevice = (stack: LocalStack, b: Pick<Buyer, "token">, deviceId: string) =>
  devicesApi(stack, b, "DELETE", `/devices/${deviceId}`);

/** The caller's device items, as the worker lists them. */
export const devicesOf = (caller: string) =>
  new DynamoDeviceStore(documentClient(), loadConfig().consumerTable).list(caller);

/** The SNS client of the local push provider. */
export function snsOf(stack: LocalStack): SNSClient {
  return new SNSClient({
    endpoint: process.env.AWS_ENDPOINT_URL_SNS,
    region: stack.emulators.regions.primary.region,
    credentials: LOCAL_CREDENTIALS,
  });
}

/** An endpoint's attributes at SNS, or the error's name when SNS has none. */
export async function endpointAttributes(
  stack: LocalStack,
  arn: string,
): Promise<Record<string, string> | string> {
  const sns = snsOf(stack);
  try {
    return (await sns.send(new GetEndpointAttributesCommand({ EndpointArn: arn }))).Attributes ?? {};
  } catch (err) {
    return (err as Error).name;
  } finally {
    sns.destroy();
  }
}
