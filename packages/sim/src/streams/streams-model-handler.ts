import { DynamoDBStreamsClient } from "@aws-sdk/client-dynamodb-streams";
import type { HttpHandlerOptions, HttpRequest, HttpResponse, RequestHandler } from "@smithy/types";
import { type StreamModel, StreamsError } from "./stream-model";
import type { HeldRecord } from "./stream-shards";

type ModelHandler = RequestHandler<HttpRequest, HttpResponse, HttpHandlerOptions>;

const TARGET = "DynamoDBStreams_20120810.";
const NAMESPACE = "com.amazonaws.dynamodb.v20120810";

type Body = Record<string, unknown>;

/** The sequence number as AWS prints it: decimal digits, fixed width here so that strings compare as numbers do. */
export const sequenceText = (n: bigint): string => n.toString().padStart(21, "0");

/**
 * A transport for the SDK's DynamoDBStreamsClient that answers from a StreamModel: the SDK serializes and
 * deserializes as it does against AWS (AWS JSON 1.0), so a reader's code runs unchanged.
 */
export function streamsModelHandler(model: StreamModel): ModelHandler {
  return {
    handle: async (request: HttpRequest) => ({ response: answer(model, request) }),
    updateHttpClientConfig: () => {},
    httpHandlerConfigs: () => ({}),
    destroy: () => {},
  } as ModelHandler;
}

/** A DynamoDBStreamsClient whose every call is answered by the model. */
export function modelStreamsClient(model: StreamModel, region = "us-east-1"): DynamoDBStreamsClient {
  return new DynamoDBStreamsClient({
    region,
    endpoint: "http://streams.dynamodb.sim",
    credentials: { accessKeyId: "sim", secretAccessKey: "sim" },
    requestHandler: streamsModelHandler(model),
    maxAttempts: 1,
  });
}

function answer(model: StreamModel, request: HttpRequest): HttpResponse {
  const target = String(request.headers["x-amz-target"] ?? request.headers["X-Amz-Target"] ?? "");
  try {
    if (!target.startsWith(TARGET))
      throw new StreamsError("UnknownOperationException", `unknown target ${target}`);
    const body = JSON.parse(bodyText(request.body) || "{}") as Body;
    return reply(200, dispatch(model, target.slice(TARGET.length), body));
  } catch (err) {
    if (!(err instanceof StreamsError)) throw err;
    return reply(400, { __type: `${NAMESPACE}#${err.type}`, message: err.message });
  }
}

function dispatch(model: StreamModel, op: string, b: Body): Body {
  if (op === "ListStreams") return { Streams: model.listStreams(b.TableName as string | undefined) };
  if (op === "DescribeStream") return describe(model, b);
  if (op === "GetShardIterator")
    return {
      ShardIterator: model.shardIterator(
        String(b.StreamArn),
        String(b.ShardId),
        String(b.ShardIteratorType),
        b.SequenceNumber as string | undefined,
      ),
    };
  if (op === "GetRecords") {
    const { records, next, stream } = model.getRecords(String(b.ShardIterator), (b.Limit as number) ?? 1000);
    const region = stream.arn.split(":")[3] ?? "";
    return {
      Records: records.map((r) => toWire(r, stream.viewType, region)),
      ...(next ? { NextShardIterator: next } : {}),
    };
  }
  throw new StreamsError("ModelUnsupportedException", `the streams model does not support ${op}`);
}

function describe(model: StreamModel, b: Body): Body {
  const { stream, shards } = model.describeStream(String(b.StreamArn));
  const limit = (b.Limit as number | undefined) ?? 100;
  const after = b.ExclusiveStartShardId as string | undefined;
  const start = after ? shards.findIndex((s) => s.shardId === after) + 1 : 0;
  const page = shards.slice(start, start + limit);
  const more = start + limit < shards.length;
  return {
    StreamDescription: {
      StreamArn: stream.arn,
      StreamLabel: stream.label,
      StreamStatus: "ENABLED",
      StreamViewType: stream.viewType,
      TableName: stream.table,
      Shards: page.map((s) => ({
        ShardId: s.shardId,
        ...(s.parentShardId ? { ParentShardId: s.parentShardId } : {}),
        SequenceNumberRange: {
          StartingSequenceNumber: sequenceText(s.startingSequence),
          ...(s.endingSequence !== undefined ? { EndingSequenceNumber: sequenceText(s.endingSequence) } : {}),
        },
      })),
      ...(more ? { LastEvaluatedShardId: page.at(-1)?.shardId } : {}),
    },
  };
}

function toWire(r: HeldRecord, viewType: string, region: string): Body {
  const { change } = r;
  return {
    eventID: r.sequence.toString(16).padStart(32, "0"),
    eventName: change.eventName,
    eventVersion: "1.1",
    eventSource: "aws:dynamodb",
    awsRegion: region,
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(r.atMs / 1000),
      Keys: change.keys,
      ...(change.newImage ? { NewImage: change.newImage } : {}),
      ...(change.oldImage ? { OldImage: change.oldImage } : {}),
      SequenceNumber: sequenceText(r.sequence),
      SizeBytes: r.sizeBytes,
      StreamViewType: viewType,
    },
    ...(change.byTtl ? { userIdentity: { PrincipalId: "dynamodb.amazonaws.com", Type: "Service" } } : {}),
  };
}

function reply(statusCode: number, body: Body): HttpResponse {
  return {
    statusCode,
    headers: { "content-type": "application/x-amz-json-1.0" },
    body: new TextEncoder().encode(JSON.stringify(body)),
  } as HttpResponse;
}

function bodyText(body: unknown): string {
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  if (body === undefined || body === null) return "";
  throw new StreamsError("ModelUnsupportedException", "a streamed request body");
}
