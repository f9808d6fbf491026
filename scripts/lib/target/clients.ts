import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Target } from "./target";

/** The emulators' credentials: DynamoDB Local keeps one database per access key and Region. */
const LOCAL_CREDENTIALS = { accessKeyId: "local", secretAccessKey: "local" };

/**
 * The client settings for one Region of the target: the emulator's endpoint locally; in a stage only the Region,
 * so the SDK's own chain supplies credentials (and AWS_ENDPOINT_URL_* still points it elsewhere, as tests do).
 * Few retries and bounded timeouts: a Region that does not answer is a finding, not a reason to hang.
 */
function base(t: Target, region: string, endpoint: string | undefined) {
  return {
    region,
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 10_000 },
    ...(t.local ? { endpoint, credentials: LOCAL_CREDENTIALS } : {}),
  };
}

/** A document client on DynamoDB in `region` (numbers as numbers, undefined attributes dropped). */
export function dynamoIn(t: Target, region: string): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(new DynamoDBClient(base(t, region, t.local?.dynamodb)), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

/** An SQS client in `region` that sends to its endpoint, never to the host in a queue URL (fauxqs's do not resolve). */
export function sqsIn(t: Target, region: string): SQSClient {
  return new SQSClient({ ...base(t, region, t.local?.sqs), useQueueUrlAsEndpoint: false });
}
