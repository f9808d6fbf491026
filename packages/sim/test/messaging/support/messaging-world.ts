import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { modelSesClient } from "../../../src/ses/client";
import { SesModel } from "../../../src/ses/model";
import { modelSnsClient } from "../../../src/sns/client";
import { SnsModel } from "../../../src/sns/model";
import { modelSqsClient } from "../../../src/sqs/client";
import { SqsModel } from "../../../src/sqs/model";

/** A clock the test moves by hand. */
export class ManualClock {
  constructor(public t = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

/** The three models on one manual clock, with SDK clients whose transport they are. */
export function messagingWorld() {
  const clock = new ManualClock();
  const sqsModel = new SqsModel({ clock });
  const snsModel = new SnsModel({ clock, sqs: sqsModel });
  const sesModel = new SesModel({ clock });
  return {
    clock,
    sqsModel,
    snsModel,
    sesModel,
    sqs: modelSqsClient(sqsModel),
    sns: modelSnsClient(snsModel),
    ses: modelSesClient(sesModel),
  };
}

/** Creates a FIFO queue (and a FIFO DLQ when `maxReceiveCount` is given); answers their URLs. */
export async function fifoQueue(
  sqs: SQSClient,
  name: string,
  attrs: Record<string, string> = {},
  maxReceiveCount?: number,
): Promise<{ url: string; dlqUrl?: string }> {
  let dlqUrl: string | undefined;
  const extra: Record<string, string> = {};
  if (maxReceiveCount !== undefined) {
    dlqUrl = (
      await sqs.send(
        new CreateQueueCommand({ QueueName: `${name}-dlq.fifo`, Attributes: { FifoQueue: "true" } }),
      )
    ).QueueUrl as string;
    const arn = (
      await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ["QueueArn"] }))
    ).Attributes?.QueueArn;
    extra.RedrivePolicy = JSON.stringify({ deadLetterTargetArn: arn, maxReceiveCount });
  }
  const out = await sqs.send(
    new CreateQueueCommand({
      QueueName: `${name}.fifo`,
      Attributes: { FifoQueue: "true", ...attrs, ...extra },
    }),
  );
  return { url: out.QueueUrl as string, dlqUrl };
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(
  p: Promise<unknown>,
): Promise<Error & { Code?: string; $metadata?: { httpStatusCode?: number } }> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected the call to fail, and it succeeded");
}
