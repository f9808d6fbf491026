import { GetQueueAttributesCommand, PurgeQueueCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { describe, expect, it } from "vitest";
import { sqsOf } from "../async/support/async-stack";
import { useLocalStack } from "../support/local-stack";
import { runScript } from "../support/run-script";

// The redrive used to default its Region to us-east-1 (which locally, as in many accounts, is a real
// Region with real queues); now what neither a flag nor the environment gives is refused.
const stack = useLocalStack();

describe("the DLQ redrive, run without the environment it needs", () => {
  it.each([
    ["the Region", { AWS_REGION: undefined }, [], /refused: AWS_REGION is not set/],
    [
      "the target queue",
      { EVENTS_QUEUE_URL: undefined },
      ["--region", "us-east-1"],
      /refused: EVENTS_QUEUE_URL/,
    ],
  ] as const)("without %s: exit 2, and the DLQ keeps its message", async (_what, env, extra, message) => {
    // prepare: one message in the events DLQ, old enough to be moved
    const { endpoints, regions } = stack().emulators;
    const dlq = regions.primary.queues.eventsDlq;
    const sqs = sqsOf(stack());
    await sqs.send(new PurgeQueueCommand({ QueueUrl: dlq }));
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: dlq,
        MessageBody: JSON.stringify({ note: "a dead letter" }),
        MessageGroupId: "m-redrive",
        MessageDeduplicationId: `dead-${Date.now()}`,
      }),
    );
    // act
    const run = await runScript(
      "scripts/redrive-dlq.ts",
      ["--endpoint", endpoints.sqs, "--dlq-url", dlq, "--dedup-window-s", "0", ...extra],
      env,
    );
    // assess
    expect(run.code, run.out).toBe(2);
    expect(run.out).toMatch(message);
    const depth = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: dlq,
        AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
      }),
    );
    const a = depth.Attributes ?? {};
    expect(Number(a.ApproximateNumberOfMessages) + Number(a.ApproximateNumberOfMessagesNotVisible)).toBe(1);
    sqs.destroy();
  });
});
