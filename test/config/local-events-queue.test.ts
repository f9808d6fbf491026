import { GetQueueAttributesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../packages/local/src/emulators/free-port";
import type { ManagedProcess } from "../../packages/local/src/emulators/managed-process";
import { startFauxqs } from "../../packages/local/src/emulators/node-services";
import { createQueues } from "../../packages/local/src/stack/create-resources";
import { LOCAL_CREDENTIALS, localRegions } from "../../packages/local/src/stack/regions";
import { EVENTS_QUEUE } from "../../stacks/events-queue";
import { handlers } from "../../stacks/handlers";

// The local stack makes each Region's events queue as the stacks do (stacks/events-queue.ts): high-throughput FIFO
// and a visibility timeout of 6× the worker's. fauxqs stores the two FIFO attributes without acting on them (it
// deduplicates across the queue, which drops the same copies for our dedup ids, and has no throughput quota).
let sqs: ManagedProcess | undefined;
let endpoint = "";

beforeAll(async () => {
  const port = await freePort();
  sqs = await startFauxqs(port, "us-east-1");
  endpoint = `http://127.0.0.1:${port}`;
}, 60_000);

afterAll(async () => {
  await sqs?.stop();
});

describe("the local events queue, as deployed", () => {
  it("is high-throughput FIFO with a visibility timeout of 6× the worker's timeout", async () => {
    // prepare
    const region = localRegions().primary;
    const saved = process.env.EVENTS_VISIBILITY_TIMEOUT_S;
    delete process.env.EVENTS_VISIBILITY_TIMEOUT_S;
    // act
    const urls = await createQueues(endpoint, region).finally(() => {
      if (saved !== undefined) process.env.EVENTS_VISIBILITY_TIMEOUT_S = saved;
    });
    const client = new SQSClient({ endpoint, region: region.region, credentials: LOCAL_CREDENTIALS });
    const { Attributes: a = {} } = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: urls.events, AttributeNames: ["All"] }),
    );
    client.destroy();
    // assess
    const worker = handlers.find((h) => h.trigger.kind === "events-queue");
    expect(a).toMatchObject({
      FifoQueue: "true",
      DeduplicationScope: "messageGroup",
      FifoThroughputLimit: "perMessageGroupId",
      VisibilityTimeout: String(6 * Number(worker?.timeoutSeconds)),
    });
    expect(JSON.parse(String(a.RedrivePolicy)).maxReceiveCount).toBe(EVENTS_QUEUE.maxReceiveCount);
  });
});
