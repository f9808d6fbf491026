import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import { runStreamJob, totalsSink } from "@eo/core";
import middy from "@middy/core";
import type { DynamoDBStreamEvent } from "aws-lambda";
import { logger } from "../shared/observability";

/**
 * The tumbling-window fields Lambda adds to a stream event (as @types/aws-lambda has them for Kinesis only):
 * https://docs.aws.amazon.com/lambda/latest/dg/services-ddb-windows.html
 */
export interface DynamoDBTumblingWindowEvent extends DynamoDBStreamEvent {
  window: { start: string; end: string };
  state?: Record<string, unknown>;
  shardId: string;
  isFinalInvokeForWindow: boolean;
  isWindowTerminatedEarly: boolean;
}

/**
 * The merchants' daily totals (Part 8) on the ledger's stream with tumbling windows: the mapping carries the job's
 * state between invocations and commits it with the stream position; the job writes absolute totals to the sink.
 * A throw makes the mapping retry the batch with the last committed state: the restore the full flush is for.
 */
export const handler = middy(async (event: DynamoDBTumblingWindowEvent) => {
  const result = await runStreamJob(totalsSink(), {
    shard: event.shardId,
    window: event.window.start,
    records: event.Records,
    state: event.state ?? {},
    final: event.isFinalInvokeForWindow,
    // The 1 MB state limit ended the window early: the next invocation goes on with the same window afresh.
    cutShort: event.isWindowTerminatedEarly,
  });
  const { state, ...report } = result;
  if (report.flushed || report.late > 0) logger.info("stream job", { window: event.window, ...report });
  return { state };
}).use(injectLambdaContext(logger));
