import { SQSClient } from "@aws-sdk/client-sqs";
import { documentClient } from "../aws/document-client";
import { DynamoTotalsSink } from "./dynamo-totals-sink";
import type { StreamJobFailures } from "./run-job-part";
import { SqsStreamJobFailures } from "./sqs-stream-job-failures";
import type { TotalsSink } from "./totals-sink";

let sink: TotalsSink | undefined;
let failures: StreamJobFailures | undefined;

/** The job's sink on this Region's totals table (`TOTALS_TABLE`), built once per process. */
export function totalsSink(env: NodeJS.ProcessEnv = process.env): TotalsSink {
  const table = env.TOTALS_TABLE;
  if (!table) throw new Error("TOTALS_TABLE is not set: the stream job has no sink");
  sink ??= new DynamoTotalsSink(documentClient(), table);
  return sink;
}

/** The job's failure queue (`STREAM_JOB_FAILURES_QUEUE_URL`), built once per process. */
export function streamJobFailures(env: NodeJS.ProcessEnv = process.env): StreamJobFailures {
  const url = env.STREAM_JOB_FAILURES_QUEUE_URL;
  if (!url) throw new Error("STREAM_JOB_FAILURES_QUEUE_URL is not set: the stream job has no failure queue");
  failures ??= new SqsStreamJobFailures(new SQSClient({ maxAttempts: 3, useQueueUrlAsEndpoint: false }), url);
  return failures;
}
