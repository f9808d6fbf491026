import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { StreamJobFailures } from "./run-job-part";
import type { SkippedBatch } from "./skipped-batch";

/** The stream job's failure queue on SQS (a standard queue: each message is one skipped batch, read by an operator). */
export class SqsStreamJobFailures implements StreamJobFailures {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async report(batch: SkippedBatch): Promise<void> {
    await this.sqs.send(
      new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(batch) }),
    );
  }
}
