import { JOB_RETRY_POLICY, type JobPartOutcome, runJobPart, streamJobFailures, totalsSink } from "@eo/core";
import type { Context, DynamoDBRecord } from "aws-lambda";
import { AsyncMetric, countMetric } from "../async/async-metrics";
import { logger } from "../shared/observability";

/**
 * The tumbling-window fields Lambda adds to a stream event (as @types/aws-lambda has them for Kinesis only):
 * https://docs.aws.amazon.com/lambda/latest/dg/services-ddb-windows.html
 */
export interface TumblingWindowFields {
  window: { start: string; end: string };
  state?: Record<string, unknown>;
  shardId: string;
  isFinalInvokeForWindow: boolean;
  isWindowTerminatedEarly: boolean;
}

/**
 * The merchants' daily totals' part of a ledger stream batch (Part 8): the mapping's window carries the job's state
 * and commits it with the stream position; the job writes absolute totals to the sink. It retries in place and then
 * gives the batch up to its own failure queue, so that the relay's events never wait for it (run-job-part.ts).
 */
export async function runStreamJobPart(
  event: TumblingWindowFields,
  records: DynamoDBRecord[],
  context: Pick<Context, "getRemainingTimeInMillis">,
): Promise<JobPartOutcome> {
  const outcome = await runJobPart(
    totalsSink(),
    streamJobFailures(),
    {
      shard: event.shardId,
      window: event.window.start,
      records,
      state: event.state ?? {},
      final: event.isFinalInvokeForWindow,
      // The 1 MB state limit ended the window early: the next invocation goes on with the same window afresh.
      cutShort: event.isWindowTerminatedEarly,
    },
    { ...JOB_RETRY_POLICY, timeLeftMs: () => context.getRemainingTimeInMillis() },
  );
  if (outcome.kind === "skipped") {
    countMetric(AsyncMetric.StreamJobBatchesSkipped);
    const { events, ...batch } = outcome.skipped;
    logger.error("stream job gave a batch up to its failure queue", { ...batch, events: events.length });
  } else {
    const { state, ...report } = outcome.result;
    if (report.flushed || report.late > 0) logger.info("stream job", { window: event.window, ...report });
  }
  return outcome;
}
