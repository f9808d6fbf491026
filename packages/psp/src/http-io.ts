import type { IncomingMessage, ServerResponse } from "node:http";

/** A JSON answer before it is written: kept as a string so a replay is byte for byte the original. */
export interface JsonReply {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** Thrown while reading a request to answer it with a 4xx instead of processing it. */
export class RequestError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const MAX_BODY_BYTES = 64 * 1024;

/** Reads the whole request body, refusing bodies no real client of ours would send. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new RequestError(413, "invalid_request_error", "request body too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Parses a JSON or form-encoded body into a flat record, as Stripe accepts both. */
export function parseParams(raw: string, contentType: string | undefined): Record<string, unknown> {
  if (!contentType?.toLowerCase().includes("json")) {
    return Object.fromEntries(new URLSearchParams(raw));
  }
  let value: unknown;
  try {
    value = raw.trim() === "" ? {} : JSON.parse(raw);
  } catch {
    throw new RequestError(400, "invalid_request_error", "body is not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new RequestError(400, "invalid_request_error", "body must be a JSON object");
  }
  return value as Record<string, unknown>;
}

/** Builds a JSON reply from a value. */
export function jsonReply(status: number, value: unknown, headers?: Record<string, string>): JsonReply {
  return { status, body: JSON.stringify(value), headers };
}

/** Builds a Stripe-shaped error reply `{error:{type, message, ...}}`. */
export function errorReply(
  status: number,
  type: string,
  message: string,
  extra: Record<string, unknown> = {},
): JsonReply {
  return jsonReply(status, { error: { type, message, ...extra } });
}

/** Writes a reply unless the client has already gone away (a delayed request may outlive its socket). */
export function send(res: ServerResponse, reply: JsonReply): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(reply.status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(reply.body),
    ...reply.headers,
  });
  res.end(reply.body);
}
