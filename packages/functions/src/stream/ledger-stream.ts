import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import middy from "@middy/core";
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { publishCountedMetrics } from "../async/async-metrics";
import { logger } from "../shared/observability";
import { relayRecords } from "./outbox-relay";
import { runStreamJobPart, type TumblingWindowFields } from "./stream-job";

/**
 * A ledger stream record the stream job reads (a payment row, the mapping's `job.sk` filter in stacks/handlers.ts);
 * every other record the mapping brings matched one of the relay's filters.
 */
export const isJobRecord = (r: DynamoDBRecord): boolean => r.dynamodb?.Keys?.sk?.S === "PAYMENT";

/**
 * The one reader of the ledger's stream in a Region: the relay's records first (a failure throws, and the mapping
 * retries the whole batch with the job's last committed state), then the job's, which has a failure queue of its own.
 * The answer carries the job's state, as a tumbling window's mapping requires.
 */
export const handler = middy(async (event: DynamoDBStreamEvent & TumblingWindowFields, context: Context) => {
  const relay = event.Records.filter((r) => !isJobRecord(r));
  if (relay.length > 0) await relayRecords(relay);
  const job = event.Records.filter(isJobRecord);
  // A batch with nothing of the job's, inside a window: its state goes back as it came.
  if (job.length === 0 && !event.isFinalInvokeForWindow && !event.isWindowTerminatedEarly)
    return { state: event.state ?? {} };
  const outcome = await runStreamJobPart(event, job, context);
  return { state: outcome.state };
})
  .use(injectLambdaContext(logger))
  .use(publishCountedMetrics());
