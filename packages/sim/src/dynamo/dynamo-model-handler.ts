import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { HttpHandlerOptions, HttpRequest, HttpResponse } from "@smithy/types";
import type { DynamoModel } from "./dynamo-model";
import { DynamoError } from "./errors";
import { executeOperation } from "./operations";

const TARGET_PREFIX = "DynamoDB_20120810.";
const ERROR_NAMESPACE = "com.amazonaws.dynamodb.v20120810#";

/** The SDK's request-handler contract, as much of it as DynamoDBClient calls. */
export interface ModelRequestHandler {
  handle(request: HttpRequest, options?: HttpHandlerOptions): Promise<{ response: HttpResponse }>;
  updateHttpClientConfig(key: never, value: never): void;
  httpHandlerConfigs(): Record<string, never>;
  destroy(): void;
}

function header(request: HttpRequest, name: string): string | undefined {
  const found = Object.entries(request.headers).find(([k]) => k.toLowerCase() === name);
  return found?.[1];
}

function bodyText(body: unknown): string {
  if (body === undefined || body === null) return "{}";
  if (typeof body === "string") return body;
  // The SDK's JSON body is a Uint8Array subclass whose string methods warn: decode the bytes themselves.
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  throw new DynamoError("SerializationException", "The DynamoDB model reads string or byte bodies only");
}

let requestCounter = 0;

// DynamoDB's reply carries its clock in `Date` (to the second), as DynamoDB Local's does: the failover stamps
// `active_from` on the authority's clock read from it (authority-clock.ts), so the model answers it on its own.
function reply(
  statusCode: number,
  body: Record<string, unknown>,
  nowMs?: number,
): { response: HttpResponse } {
  requestCounter += 1;
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  return {
    response: {
      statusCode,
      headers: {
        "content-type": "application/x-amz-json-1.0",
        "content-length": String(bytes.length),
        "x-amzn-requestid": `SIM${String(requestCounter).padStart(20, "0")}`,
        ...(nowMs === undefined ? {} : { date: new Date(nowMs).toUTCString() }),
      },
      // A Uint8Array body: the SDK's collectBody takes it as is, so its own deserializers and error classes run.
      body: bytes,
    },
  };
}

function errorReply(e: unknown): { response: HttpResponse } {
  if (!(e instanceof DynamoError)) throw e;
  // Always 400: a 5xx would make a client with default retries back off on its own (random, real-time) schedule.
  const status = 400;
  return reply(status, { __type: namespaced(e.type), message: e.message, ...e.extra });
}

/** The `__type` DynamoDB (Local) answers: validation and protocol errors come from its framework's namespaces. */
function namespaced(type: string): string {
  if (type === "ModelUnsupportedException") return type;
  if (type === "ValidationException") return `com.amazon.coral.validate#${type}`;
  if (type === "SerializationException" || type === "UnknownOperationException")
    return `com.amazon.coral.service#${type}`;
  return `${ERROR_NAMESPACE}${type}`;
}

/**
 * A Smithy HttpHandler that answers DynamoDB's JSON protocol from the in-memory model, for
 * `new DynamoDBClient({ requestHandler })`: the SDK still serializes, signs and deserializes as in production.
 */
export function dynamoModelHandler(model: DynamoModel): ModelRequestHandler {
  return {
    async handle(request) {
      const target = header(request, "x-amz-target") ?? "";
      if (!target.startsWith(TARGET_PREFIX)) {
        return errorReply(new DynamoError("UnknownOperationException", `Unknown target ${target}`));
      }
      try {
        const input = JSON.parse(bodyText(request.body)) as Record<string, unknown>;
        return reply(
          200,
          executeOperation(model, target.slice(TARGET_PREFIX.length), input),
          model.clock.now(),
        );
      } catch (e) {
        if (e instanceof SyntaxError) return errorReply(new DynamoError("SerializationException", e.message));
        return errorReply(e);
      }
    },
    updateHttpClientConfig() {},
    httpHandlerConfigs() {
      return {};
    },
    destroy() {},
  };
}

/** A DynamoDBClient whose every call goes to the model (static fake credentials, endpoint http://dynamodb.sim). */
export function modelDynamoClient(model: DynamoModel, region = "us-east-1"): DynamoDBClient {
  return new DynamoDBClient({
    region,
    endpoint: "http://dynamodb.sim",
    credentials: { accessKeyId: "SIMULATED", secretAccessKey: "SIMULATED" },
    requestHandler: dynamoModelHandler(model),
    maxAttempts: 1,
  });
}
