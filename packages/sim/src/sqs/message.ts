import { createHash } from "node:crypto";
import { invalidParameterValue, sqsUnsupported } from "./errors";

/** A message attribute as SQS carries it (BinaryValue as bytes). */
export interface AttributeValue {
  DataType: string;
  StringValue?: string;
  BinaryValue?: Uint8Array;
}

/** One stored message and its delivery state. */
export interface StoredMessage {
  /** The model-wide order of sends; also the key in receipt handles. */
  seq: number;
  messageId: string;
  body: string;
  attributes: Record<string, AttributeValue>;
  groupId?: string;
  dedupId?: string;
  sequenceNumber?: string;
  sentAt: number;
  /** When retention counts from: the send, or (FIFO) the move to a dead-letter queue. */
  enqueuedAt: number;
  /** Hidden until then: a delay or a visibility timeout. */
  visibleAt: number;
  receiveCount: number;
  firstReceivedAt?: number;
  /** The receive that issued the current receipt handle; 0 before the first receive. */
  receiptNo: number;
  /** When the current receipt's visibility ends (moved by ChangeMessageVisibility). */
  receiptExpiresAt: number;
  /** When the current receipt was issued: the 12-hour visibility ceiling counts from it. */
  receivedAt: number;
  deadLetterSourceArn?: string;
}

/** The MD5 of a body as SQS returns it (hex). */
export function md5Hex(text: string | Uint8Array): string {
  return createHash("md5").update(text).digest("hex");
}

/**
 * The MD5 of message attributes by SQS's documented encoding: attributes sorted by name, each as its name, its
 * data type, a transport byte (1 string, 2 binary) and its value, every field length-prefixed (4 bytes, big-endian).
 */
export function md5OfAttributes(attrs: Record<string, AttributeValue>): string | undefined {
  const names = Object.keys(attrs).sort();
  if (names.length === 0) return undefined;
  const parts: Buffer[] = [];
  const field = (bytes: Uint8Array) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(bytes.length);
    parts.push(len, Buffer.from(bytes));
  };
  for (const name of names) {
    const a = attrs[name] as AttributeValue;
    field(Buffer.from(name, "utf8"));
    field(Buffer.from(a.DataType, "utf8"));
    const binary = a.BinaryValue !== undefined;
    parts.push(Buffer.from([binary ? 2 : 1]));
    field(binary ? (a.BinaryValue as Uint8Array) : Buffer.from(a.StringValue ?? "", "utf8"));
  }
  return md5Hex(Buffer.concat(parts));
}

/** The size SQS counts against MaximumMessageSize: body plus each attribute's name, type and value. */
export function messageSize(body: string, attrs: Record<string, AttributeValue>): number {
  let n = Buffer.byteLength(body, "utf8");
  for (const [name, a] of Object.entries(attrs)) {
    n += Buffer.byteLength(name) + Buffer.byteLength(a.DataType);
    n += a.BinaryValue ? a.BinaryValue.length : Buffer.byteLength(a.StringValue ?? "");
  }
  return n;
}

// The characters SQS allows in a body: #x9 #xA #xD, #x20 to #xD7FF, #xE000 to #xFFFD, #x10000 to #x10FFFF.
const ALLOWED_BODY = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

/** True when SQS would accept every character of the body. */
export function validBody(body: string): boolean {
  return ALLOWED_BODY.test(body);
}

/** Checks message attributes as SendMessage does: at most 10, a known data type, a value of that type. */
export function checkAttributes(attrs: Record<string, AttributeValue>): void {
  const entries = Object.entries(attrs);
  if (entries.length > 10)
    throw invalidParameterValue(
      `Number of message attributes [${entries.length}] exceeds the allowed maximum [10].`,
    );
  for (const [name, a] of entries) {
    const base = a.DataType?.split(".")[0];
    if (base !== "String" && base !== "Number" && base !== "Binary")
      throw invalidParameterValue(
        `The type of message (user) attribute '${name}' is invalid. You must use only the following supported type prefixes: Binary, Number, String.`,
      );
    const hasValue = base === "Binary" ? a.BinaryValue !== undefined : a.StringValue !== undefined;
    if (!hasValue)
      throw invalidParameterValue(
        `The message attribute '${name}' must contain a non-empty message attribute value for message attribute type '${base}'.`,
      );
    if (base === "Number" && !Number.isFinite(Number(a.StringValue)))
      throw invalidParameterValue(`Can't cast the value of message (user) attribute '${name}' to a number.`);
  }
}

/** The only message system attribute a sender may set is AWSTraceHeader; the model carries none. */
export function refuseSystemAttributes(system: Record<string, unknown> | undefined): void {
  if (system && Object.keys(system).length > 0)
    throw sqsUnsupported("MessageSystemAttributes on send (AWSTraceHeader)");
}

/** A 20-digit, strictly increasing FIFO sequence number from a per-queue counter. */
export function sequenceNumberOf(n: number): string {
  return (10n ** 19n + BigInt(n) * 65_536n).toString();
}
