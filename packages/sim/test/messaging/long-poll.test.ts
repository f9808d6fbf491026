import { DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import FakeTimers from "@sinonjs/fake-timers";
import { describe, expect, it } from "vitest";
import { modelSqsClient } from "../../src/sqs/client";
import { SqsModel } from "../../src/sqs/model";
import { fifoQueue, messagingWorld } from "./support/messaging-world";

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("long polling in virtual time", () => {
  it("answers a waiting receive as soon as a message is sent", async () => {
    const { sqs, sqsModel } = messagingWorld();
    const { url } = await fifoQueue(sqs, "wake");
    const waiting = sqs.send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 20 }));
    await flush();
    const parked = sqsModel.parkedReceives;

    await sqs.send(
      new SendMessageCommand({
        QueueUrl: url,
        MessageBody: "x",
        MessageGroupId: "g",
        MessageDeduplicationId: "d",
      }),
    );

    expect(parked).toBe(1);
    expect((await waiting).Messages?.map((m) => m.Body)).toEqual(["x"]);
  });

  it("answers empty when the wait ends, at the moment nextEventAt names", async () => {
    const { sqs, sqsModel, clock } = messagingWorld();
    const { url } = await fifoQueue(sqs, "timeout");
    const started = clock.now();
    let answered = false;
    const waiting = sqs.send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 5 })).then((out) => {
      answered = true;
      return out;
    });
    await flush();

    clock.t = (sqsModel.nextEventAt() ?? 0) - 1;
    sqsModel.tick();
    await flush();
    const earlyAnswer = answered;
    clock.advance(1);
    sqsModel.tick();

    expect(earlyAnswer).toBe(false);
    expect(clock.now() - started).toBe(5_000);
    expect((await waiting).Messages ?? []).toEqual([]);
  });

  it("answers a waiting receive when a hidden message's visibility ends during the wait", async () => {
    const { sqs, sqsModel, clock } = messagingWorld();
    const { url } = await fifoQueue(sqs, "reappear", { VisibilityTimeout: "3" });
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: url,
        MessageBody: "x",
        MessageGroupId: "g",
        MessageDeduplicationId: "d",
      }),
    );
    await sqs.send(new ReceiveMessageCommand({ QueueUrl: url }));
    const waiting = sqs.send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 20 }));
    await flush();

    clock.t = sqsModel.nextEventAt() ?? 0;
    sqsModel.tick();

    const out = await waiting;
    expect(out.Messages?.map((m) => m.Body)).toEqual(["x"]);
  });

  it("calls onAvailable listeners on a send, on a freed FIFO group and on a visibility end", async () => {
    const { sqs, sqsModel, clock } = messagingWorld();
    const { url } = await fifoQueue(sqs, "listen", { VisibilityTimeout: "5" });
    const calls: string[] = [];
    let phase = "";
    sqsModel.onAvailable(url, () => calls.push(phase));
    const send = (body: string) =>
      sqs.send(
        new SendMessageCommand({
          QueueUrl: url,
          MessageBody: body,
          MessageGroupId: "g",
          MessageDeduplicationId: body,
        }),
      );

    phase = "send";
    await send("a");
    await send("b");
    phase = "receive";
    const [a] = (await sqs.send(new ReceiveMessageCommand({ QueueUrl: url }))).Messages ?? [];
    phase = "delete";
    await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: a?.ReceiptHandle }));
    await sqs.send(new ReceiveMessageCommand({ QueueUrl: url }));
    phase = "visibility";
    clock.advance(5_000);
    sqsModel.tick();

    expect(calls).toEqual(["send", "send", "delete", "visibility"]);
  });

  it("wakes itself with virtual timers when it is given them", async () => {
    const timers = FakeTimers.createClock(Date.UTC(2026, 0, 1));
    const model = new SqsModel({ clock: { now: () => timers.now }, timers });
    const sqs = modelSqsClient(model);
    const url = model.createQueue("self-wake");
    const waiting = sqs.send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 20 }));
    await flush();

    await timers.tickAsync(20_000);

    expect((await waiting).Messages ?? []).toEqual([]);
    expect(model.parkedReceives).toBe(0);
  });
});
