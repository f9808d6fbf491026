import type { AttributeValue as SdkAttributeValue } from "@aws-sdk/client-dynamodb";
import type { AttributeValue } from "aws-lambda";
import { toAttributeValue } from "../pollers/stream-record";
import type { ItemImage } from "./replication-types";

/** Turns an image in the stream's Lambda form into the form PutItem and DeleteItem take. */
export function toSdkImage(image: ItemImage): Record<string, SdkAttributeValue> {
  return Object.fromEntries(Object.entries(image).map(([k, v]) => [k, toSdkValue(v)]));
}

/** Turns an item a DynamoDB call returned into the stream's Lambda form, to compare it with stream images. */
export function fromSdkImage(item: Record<string, SdkAttributeValue> | undefined): ItemImage | undefined {
  if (!item) return undefined;
  // The streams client's AttributeValue has the same shape as the DynamoDB client's.
  return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, toAttributeValue(v as never)]));
}

function toSdkValue(v: AttributeValue): SdkAttributeValue {
  if (v.S !== undefined) return { S: v.S };
  if (v.N !== undefined) return { N: v.N };
  if (v.BOOL !== undefined) return { BOOL: v.BOOL };
  if (v.NULL !== undefined) return { NULL: v.NULL };
  if (v.B !== undefined) return { B: Buffer.from(v.B, "base64") };
  if (v.SS !== undefined) return { SS: v.SS };
  if (v.NS !== undefined) return { NS: v.NS };
  if (v.BS !== undefined) return { BS: v.BS.map((b) => Buffer.from(b, "base64")) };
  if (v.L !== undefined) return { L: v.L.map(toSdkValue) };
  if (v.M !== undefined) return { M: toSdkImage(v.M) };
  throw new Error(`unsupported attribute value: ${Object.keys(v).join(",")}`);
}
