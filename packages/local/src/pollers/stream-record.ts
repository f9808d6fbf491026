import type {
  AttributeValue as SdkAttributeValue,
  _Record as SdkRecord,
} from "@aws-sdk/client-dynamodb-streams";
import type { AttributeValue, DynamoDBRecord, StreamRecord } from "aws-lambda";

/** Where the records come from, as Lambda names it in every record. */
export interface RecordSource {
  region: string;
  eventSourceARN: string;
}

/** The identity AWS puts on a record that its TTL process deleted. */
export const TTL_IDENTITY = { type: "Service", principalId: "dynamodb.amazonaws.com" } as const;

// DynamoDB Local writes this eventName for TTL deletes, where AWS writes REMOVE with the service identity.
const LOCAL_TTL_EVENT = "UNKNOWN_TO_SDK_VERSION";

/** Turns a record as GetRecords returns it into the record a Lambda function receives in a DynamoDBStreamEvent. */
export function toLambdaRecord(record: SdkRecord, source: RecordSource): DynamoDBRecord {
  const name = record.eventName as string | undefined;
  const ttlDelete = name === LOCAL_TTL_EVENT;
  const out: DynamoDBRecord = {
    eventID: record.eventID,
    eventName: ttlDelete ? "REMOVE" : (name as DynamoDBRecord["eventName"]),
    eventVersion: record.eventVersion ?? "1.1",
    eventSource: "aws:dynamodb",
    // DynamoDB Local says "ddblocal"; Lambda gives the Region the table lives in.
    awsRegion: source.region,
    dynamodb: toStreamRecord(record.dynamodb ?? {}),
    eventSourceARN: source.eventSourceARN,
  };
  if (ttlDelete) out.userIdentity = { ...TTL_IDENTITY };
  else if (record.userIdentity) {
    out.userIdentity = { type: record.userIdentity.Type, principalId: record.userIdentity.PrincipalId };
  }
  return out;
}

function toStreamRecord(r: NonNullable<SdkRecord["dynamodb"]>): StreamRecord {
  const out: StreamRecord = {
    // Lambda sends epoch seconds; the SDK parses the wire's number into a Date.
    ApproximateCreationDateTime: r.ApproximateCreationDateTime
      ? r.ApproximateCreationDateTime.getTime() / 1000
      : undefined,
    Keys: toImage(r.Keys),
    SequenceNumber: r.SequenceNumber,
    SizeBytes: r.SizeBytes,
    StreamViewType: r.StreamViewType,
  };
  if (r.NewImage) out.NewImage = toImage(r.NewImage);
  if (r.OldImage) out.OldImage = toImage(r.OldImage);
  return out;
}

function toImage(
  image: Record<string, SdkAttributeValue> | undefined,
): Record<string, AttributeValue> | undefined {
  if (!image) return undefined;
  return Object.fromEntries(Object.entries(image).map(([k, v]) => [k, toAttributeValue(v)]));
}

/** Converts one SDK attribute value to the JSON form Lambda delivers (binary as base64, as on the wire). */
export function toAttributeValue(v: SdkAttributeValue): AttributeValue {
  if (v.S !== undefined) return { S: v.S };
  if (v.N !== undefined) return { N: v.N };
  if (v.BOOL !== undefined) return { BOOL: v.BOOL };
  if (v.NULL !== undefined) return { NULL: v.NULL };
  if (v.B !== undefined) return { B: base64(v.B) };
  if (v.SS !== undefined) return { SS: v.SS };
  if (v.NS !== undefined) return { NS: v.NS };
  if (v.BS !== undefined) return { BS: v.BS.map(base64) };
  if (v.L !== undefined) return { L: v.L.map(toAttributeValue) };
  if (v.M !== undefined) return { M: toImage(v.M) ?? {} };
  throw new Error(`unsupported attribute value: ${Object.keys(v).join(",")}`);
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}
