import { ReceiveMessageCommand, SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import FakeTimers from "@sinonjs/fake-timers";
import { describe, expect, it } from "vitest";
import { modelSqsClient } from "../../packages/sim/src/sqs/client";
import { SqsModel } from "../../packages/sim/src/sqs/model";
import { fifoQueue, messagingWorld } from "../../packages/sim/test/messaging/support/messaging-world";
import { checkQueues, redrive } from "../../scripts/lib/redrive";

const event = (id: string) =>
  JSON.stringify({
    type: "payment.succeeded",
    event_id: id,
    payment_id: `pay-${id}`,
    merchant_id: "m1",
    caller: "c1",
    currency: "EUR",
    amount: 100,
    occurred_at: 1,
  });

async function sendEvent(sqs: SQSClient, url: string, id: string) {
  return sqs.send(
    new SendMessageCommand({
      QueueUrl: url,
      MessageBody: event(id),
      MessageGroupId: "m1",
      MessageDeduplicationId: id,
    }),
  );
}

const receive = async (sqs: SQSClient, url: string) =>
  (
    await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: url,
        MaxNumberOfMessages: 10,
        MessageSystemAttributeNames: ["All"],
      }),
    )
  ).Messages ?? [];

describe("redrive to the dead-letter queue", () => {
  it("moves a message on the receive after maxReceiveCount, keeping its group, dedup id and SentTimestamp", async () => {
    const { sqs, clock } = messagingWorld();
    const { url, dlqUrl } = await fifoQueue(sqs, "events", { VisibilityTimeout: "10" }, 2);
    const sentAt = clock.now();
    await sendEvent(sqs, url, "e1");
    for (let i = 0; i < 2; i++) {
      await receive(sqs, url);
      clock.advance(10_000);
    }

    const third = await receive(sqs, url);
    const dead = await receive(sqs, dlqUrl as string);

    expect(third).toEqual([]);
    expect(dead.map((m) => m.Attributes)).toEqual([
      expect.objectContaining({
        MessageGroupId: "m1",
        MessageDeduplicationId: "e1",
        SentTimestamp: String(sentAt),
        DeadLetterQueueSourceArn: expect.stringMatching(/:events\.fifo$/),
      }),
    ]);
  });

  it("lets the group's next message through once the head has moved to the DLQ", async () => {
    const { sqs, clock } = messagingWorld();
    const { url } = await fifoQueue(sqs, "poison", { VisibilityTimeout: "10" }, 1);
    await sendEvent(sqs, url, "poison");
    await sendEvent(sqs, url, "next");
    await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 1 }));
    clock.advance(10_000);

    const after = await receive(sqs, url);

    expect(after.map((m) => m.Attributes?.MessageDeduplicationId)).toEqual(["next"]);
  });
});

describe("the project's redrive script against the model", () => {
  function timedWorld() {
    const timers = FakeTimers.createClock(Date.UTC(2026, 0, 1));
    const model = new SqsModel({ clock: { now: () => timers.now }, timers });
    return { timers, sqs: modelSqsClient(model) };
  }

  async function deadLetter(sqs: SQSClient, timers: FakeTimers.Clock) {
    const queues = await fifoQueue(sqs, "events", { VisibilityTimeout: "10" }, 1);
    const first = await sendEvent(sqs, queues.url, "e1");
    await receive(sqs, queues.url);
    timers.tick(10_000);
    await receive(sqs, queues.url);
    return { ...queues, dlqUrl: queues.dlqUrl as string, firstId: first.MessageId };
  }

  async function run(
    sqs: SQSClient,
    timers: FakeTimers.Clock,
    q: { url: string; dlqUrl: string },
    dedupWindowS: number,
  ) {
    const lines: string[] = [];
    const done = redrive({
      sqs,
      dlqUrl: q.dlqUrl,
      queueUrl: q.url,
      dryRun: false,
      dedupWindowS,
      max: 10,
      now: () => timers.now,
      log: (l) => lines.push(l),
    });
    // The script long-polls the DLQ for a second when it is empty: virtual time lets that wait pass at once.
    for (let i = 0; i < 5; i++) await timers.tickAsync(1_000);
    return { summary: await done, lines };
  }

  it("moves a dead letter back with its ids once the queue's dedup window has passed", async () => {
    const { sqs, timers } = timedWorld();
    const q = await deadLetter(sqs, timers);
    await checkQueues(sqs, q.dlqUrl, q.url);
    timers.tick(300_000);

    const { summary } = await run(sqs, timers, q, 300);
    const back = await receive(sqs, q.url);

    expect(summary.moved).toBe(1);
    expect(back.map((m) => m.Attributes?.MessageDeduplicationId)).toEqual(["e1"]);
    expect(back[0]?.MessageId).not.toBe(q.firstId);
    expect(await receive(sqs, q.dlqUrl)).toEqual([]);
  });

  it("sees the queue answer the original message id inside the window, and leaves the dead letter", async () => {
    const { sqs, timers } = timedWorld();
    const q = await deadLetter(sqs, timers);

    const { summary } = await run(sqs, timers, q, 0);

    expect(summary.moved).toBe(0);
    expect(summary.left.map((l) => l.reason)).toEqual([
      "the queue answered with the original message id: it dropped the re-send as a duplicate",
    ]);
    expect(await receive(sqs, q.dlqUrl)).toHaveLength(1);
  });
});
