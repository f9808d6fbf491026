import { randomUUID } from "node:crypto";
import { CreateTableCommand, DynamoDBClient, PutItemCommand } from "@aws-sdk/client-dynamodb";
import type { DynamoDBStreamEvent } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Poller } from "../../packages/local/src/pollers/poller";
import { startStreamPoller } from "../../packages/local/src/pollers/stream-poller";
import type { WindowFields } from "../../packages/local/src/pollers/tumbling-windows";
import { LOCAL_CREDENTIALS } from "../../packages/local/src/stack/regions";
import { useLocalStack } from "../support/local-stack";
import { eventually } from "../support/tables";

// Lambda's tumbling windows on a DynamoDB stream, as its documentation states them
// (https://docs.aws.amazon.com/lambda/latest/dg/services-ddb-windows.html): each invocation receives the state the
// last one returned; a response without `state` is a failed invocation; a failed batch is retried (with the state
// last committed); at the window's end an invocation with isFinalInvokeForWindow gets the final state, and the
// next window starts with a fresh state.
type Windowed = DynamoDBStreamEvent & WindowFields;

const stack = useLocalStack({ standby: false });
const seen: Windowed[] = [];
let behaviour: (e: Windowed) => unknown = (e) => ({
  state: { n: Number(e.state.n ?? 0) + e.Records.length },
});
let poller: Poller;
let db: DynamoDBClient;
const table = `tw-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  const where = {
    endpoint: stack().emulators.endpoints.dynamodb,
    region: "us-east-1",
    credentials: LOCAL_CREDENTIALS,
  };
  db = new DynamoDBClient(where);
  await db.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
      KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
      StreamSpecification: { StreamEnabled: true, StreamViewType: "NEW_AND_OLD_IMAGES" },
    }),
  );
  poller = await startStreamPoller({
    name: "tumbling-test",
    ...where,
    tableName: table,
    tumblingWindowS: 2,
    pollIntervalMs: 50,
    handler: async (event) => {
      const e = structuredClone(event) as Windowed;
      seen.push(e);
      return behaviour(e) as never;
    },
  });
}, 30_000);

afterAll(async () => {
  await poller?.stop();
  db?.destroy();
});

const put = (id: string) => db.send(new PutItemCommand({ TableName: table, Item: { pk: { S: id } } }));
const since = (i: number) => seen.slice(i);

describe("the local stream poller's tumbling windows (Lambda's semantics)", () => {
  it("passes each invocation the state the last one returned, with the window, the shard and the flags", async () => {
    // act
    const from = seen.length;
    await put("a1");
    await eventually(async () => (since(from).some((e) => e.Records.length > 0) ? true : undefined));
    await put("a2");
    await eventually(async () =>
      since(from).filter((e) => e.Records.length > 0).length >= 2 ? true : undefined,
    );
    // assess
    const [first, second] = since(from).filter((e) => e.Records.length > 0);
    expect(first?.window.end).toBeDefined();
    expect(Date.parse(String(first?.window.end)) - Date.parse(String(first?.window.start))).toBe(2_000);
    expect(first?.shardId).toMatch(/^shardId-/);
    expect(first?.isFinalInvokeForWindow).toBe(false);
    expect(first?.isWindowTerminatedEarly).toBe(false);
    if (second?.window.start === first?.window.start) expect(second?.state).toEqual({ n: 1 });
  }, 30_000);

  it("runs a final invocation at the window's end with its state, and the next window starts afresh", async () => {
    // prepare
    const from = seen.length;
    await put("b1");
    const withB1 = await eventually(async () =>
      since(from).find((e) => e.Records.some((r) => r.dynamodb?.Keys?.pk?.S === "b1")),
    );
    // act: wait past the window's end
    const final = await eventually(
      async () => since(from).find((e) => e.isFinalInvokeForWindow && e.window.start === withB1.window.start),
      10_000,
    );
    await put("b2");
    const next = await eventually(async () =>
      since(from).find((e) => e.Records.some((r) => r.dynamodb?.Keys?.pk?.S === "b2")),
    );
    // assess
    expect(final.Records).toEqual([]);
    expect(Number(final.state.n)).toBeGreaterThanOrEqual(1);
    expect(next.state).toEqual({});
    expect(Date.parse(next.window.start)).toBeGreaterThanOrEqual(Date.parse(final.window.end));
  }, 30_000);

  it("retries a failed batch with the state last committed, and counts an answer without state as a failure", async () => {
    // prepare: the first try throws, the second answers no state, the third succeeds
    let tries = 0;
    behaviour = (e) => {
      if (e.Records.length === 0) return { state: e.state };
      tries += 1;
      if (tries === 1) throw new Error("crashed after the sink");
      if (tries === 2) return { batchItemFailures: [] };
      return { state: { n: Number(e.state.n ?? 0) + e.Records.length } };
    };
    const from = seen.length;
    // act
    await put("c1");
    await eventually(async () => (tries >= 3 ? true : undefined), 10_000);
    // assess: three deliveries of c1, each with the same committed state
    const c1 = since(from).filter((e) => e.Records.some((r) => r.dynamodb?.Keys?.pk?.S === "c1"));
    expect(c1).toHaveLength(3);
    expect(new Set(c1.map((e) => JSON.stringify(e.state))).size).toBe(1);
  }, 30_000);
});
