import {
  CreateTableCommand,
  DeleteItemCommand,
  DynamoDBClient,
  PutItemCommand,
  UpdateItemCommand,
  UpdateTimeToLiveCommand,
} from "@aws-sdk/client-dynamodb";
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Poller } from "../../src/pollers/poller";
import type { DiscardedRecords } from "../../src/pollers/stream-delivery";
import { type StreamPollerOptions, startStreamPoller } from "../../src/pollers/stream-poller";
import { LOCAL_CREDENTIALS } from "../../src/stack/regions";
import { type Emulators, startEmulators } from "../../src/stack/start-emulators";

let emu: Emulators;
let ddb: DynamoDBClient;
const pollers: Poller[] = [];

beforeAll(async () => {
  emu = await startEmulators();
  ddb = new DynamoDBClient({
    endpoint: emu.endpoints.dynamodb,
    region: emu.regions.primary.region,
    credentials: LOCAL_CREDENTIALS,
  });
}, 60_000);

afterAll(async () => {
  await Promise.all(pollers.map((p) => p.stop()));
  ddb?.destroy();
  await emu?.stop();
}, 30_000);

type Handler = StreamPollerOptions["handler"];

/** Starts a poller on `tableName` in the primary Region with quick polls and retries. */
async function poll(tableName: string, handler: Handler, options: Partial<StreamPollerOptions> = {}) {
  const poller = await startStreamPoller({
    name: "test-projector",
    endpoint: emu.endpoints.dynamodb,
    region: emu.regions.primary.region,
    tableName,
    handler,
    pollIntervalMs: 20,
    ...options,
  });
  pollers.push(poller);
  return poller;
}

/** A pk/sk table with a NEW_AND_OLD_IMAGES stream, so that each test reads only its own records. */
async function streamTable(name: string, ttlAttribute?: string): Promise<string> {
  await ddb.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [
        { AttributeName: "pk", AttributeType: "S" },
        { AttributeName: "sk", AttributeType: "S" },
      ],
      KeySchema: [
        { AttributeName: "pk", KeyType: "HASH" },
        { AttributeName: "sk", KeyType: "RANGE" },
      ],
      StreamSpecification: { StreamEnabled: true, StreamViewType: "NEW_AND_OLD_IMAGES" },
    }),
  );
  if (ttlAttribute) {
    await ddb.send(
      new UpdateTimeToLiveCommand({
        TableName: name,
        TimeToLiveSpecification: { AttributeName: ttlAttribute, Enabled: true },
      }),
    );
  }
  return name;
}

async function putItems(tableName: string, pks: string[]): Promise<void> {
  for (const pk of pks) {
    await ddb.send(new PutItemCommand({ TableName: tableName, Item: { pk: { S: pk }, sk: { S: "item" } } }));
  }
}

const pkOf = (r: DynamoDBRecord) => r.dynamodb?.Keys?.pk?.S;

// The retry tests below hand the poller a batch the shard already holds, so they start at the trim horizon.
const fromTrimHorizon = { startingPosition: "TRIM_HORIZON" } as const;

/** A handler that records the keys of every invocation and fails the invocations `fail` picks. */
function recorder(fail: (invocation: number, event: DynamoDBStreamEvent) => DynamoDBBatchResponse | boolean) {
  const invocations: Array<{ pks: (string | undefined)[]; ok: boolean }> = [];
  const handler: Handler = async (event) => {
    const outcome = fail(invocations.length + 1, event);
    invocations.push({ pks: event.Records.map(pkOf), ok: outcome === false });
    if (outcome === true) throw new Error("projector failed");
    if (outcome !== false) return outcome;
  };
  return { invocations, handler };
}

describe("startStreamPoller", () => {
  it("delivers INSERT, MODIFY and REMOVE records with their images from the ledger table", async () => {
    // prepare
    const { ledgerTable, region } = emu.regions.primary;
    const seen: DynamoDBRecord[] = [];
    const poller = await poll(ledgerTable, async (event) => void seen.push(...event.Records));
    const key = { pk: { S: "acct#1" }, sk: { S: "entry#1" } };

    // act
    await ddb.send(new PutItemCommand({ TableName: ledgerTable, Item: { ...key, amount: { N: "100" } } }));
    await ddb.send(
      new UpdateItemCommand({
        TableName: ledgerTable,
        Key: key,
        UpdateExpression: "SET amount = :a",
        ExpressionAttributeValues: { ":a": { N: "150" } },
      }),
    );
    await ddb.send(new DeleteItemCommand({ TableName: ledgerTable, Key: key }));
    await vi.waitFor(() => expect(seen).toHaveLength(3), { timeout: 5_000, interval: 20 });
    await poller.idle();

    // assess
    const [insert, modify, remove] = seen;
    const common = {
      eventSource: "aws:dynamodb",
      awsRegion: region,
      eventSourceARN: expect.stringMatching(
        new RegExp(`^arn:aws:dynamodb:${region}:\\d+:table/ledger/stream/`),
      ),
    };
    expect(insert).toMatchObject({ ...common, eventName: "INSERT" });
    expect(insert?.dynamodb).toMatchObject({
      Keys: { pk: { S: "acct#1" }, sk: { S: "entry#1" } },
      NewImage: { pk: { S: "acct#1" }, sk: { S: "entry#1" }, amount: { N: "100" } },
      StreamViewType: "NEW_AND_OLD_IMAGES",
      ApproximateCreationDateTime: expect.any(Number),
      SizeBytes: expect.any(Number),
    });
    expect(insert?.dynamodb?.OldImage).toBeUndefined();
    expect(modify).toMatchObject({ ...common, eventName: "MODIFY" });
    expect(modify?.dynamodb?.NewImage?.amount).toEqual({ N: "150" });
    expect(modify?.dynamodb?.OldImage?.amount).toEqual({ N: "100" });
    expect(remove).toMatchObject({ ...common, eventName: "REMOVE" });
    expect(remove?.dynamodb?.OldImage?.amount).toEqual({ N: "150" });
    expect(remove?.dynamodb?.NewImage).toBeUndefined();
    const seqs = seen.map((r) => BigInt(r.dynamodb?.SequenceNumber ?? "0"));
    expect(seqs).toEqual([...seqs].sort((a, b) => (a < b ? -1 : 1)));
    expect(poller.healthy()).toBe(true);
  }, 15_000);

  it("reports a TTL delete as REMOVE by the DynamoDB service", async () => {
    // prepare
    const table = await streamTable("ttl-deletes", "expires_at");
    const removes: DynamoDBRecord[] = [];
    await poll(
      table,
      async (event) => void removes.push(...event.Records.filter((r) => r.eventName !== "INSERT")),
    );
    const past = Math.floor(Date.now() / 1000) - 60;

    // act
    await ddb.send(
      new PutItemCommand({
        TableName: table,
        Item: { pk: { S: "claim#1" }, sk: { S: "x" }, expires_at: { N: String(past) } },
      }),
    );
    // DynamoDB Local's TTL sweep runs in the background: seconds when quiet, more on a loaded machine
    await vi.waitFor(() => expect(removes).toHaveLength(1), { timeout: 40_000, interval: 50 });

    // assess
    expect(removes[0]).toMatchObject({
      eventName: "REMOVE",
      userIdentity: { type: "Service", principalId: "dynamodb.amazonaws.com" },
      dynamodb: { OldImage: { pk: { S: "claim#1" } } },
    });
  }, 50_000);

  it("redelivers a failed batch with the same records in their original order", async () => {
    // prepare
    const table = await streamTable("retry-in-order");
    const written = ["r1", "r2", "r3", "r4", "r5"];
    await putItems(table, written);
    const { invocations, handler } = recorder((n) => n <= 2);

    // act
    const poller = await poll(table, handler, { ...fromTrimHorizon, bisectBatchOnFunctionError: false });
    await vi.waitFor(() => expect(invocations.some((i) => i.ok)).toBe(true), {
      timeout: 5_000,
      interval: 20,
    });
    await poller.idle();

    // assess
    expect(invocations).toEqual([
      { pks: written, ok: false },
      { pks: written, ok: false },
      { pks: written, ok: true },
    ]);
  }, 15_000);

  it("bisects a failing batch and still delivers every record once, in order", async () => {
    // prepare
    const table = await streamTable("bisect");
    const written = ["b1", "b2", "b3", "b4", "b5"];
    await putItems(table, written);
    const { invocations, handler } = recorder((n) => n <= 2);

    // act
    const poller = await poll(table, handler, fromTrimHorizon);
    await vi.waitFor(() => expect(invocations.filter((i) => i.ok).flatMap((i) => i.pks)).toHaveLength(5), {
      timeout: 5_000,
      interval: 20,
    });
    await poller.idle();

    // assess
    expect(invocations.map((i) => i.pks)).toEqual([
      written,
      ["b1", "b2", "b3"],
      ["b1", "b2"],
      ["b3"],
      ["b4", "b5"],
    ]);
    expect(invocations.filter((i) => i.ok).flatMap((i) => i.pks)).toEqual(written);
  }, 15_000);

  it("retries from the first reported batch item failure and not before it", async () => {
    // prepare
    const table = await streamTable("partial");
    await putItems(table, ["p1", "p2", "p3", "p4"]);
    const failAtP3 = (n: number, event: DynamoDBStreamEvent): DynamoDBBatchResponse | false => {
      if (n > 1) return false;
      const p3 = event.Records.find((r) => pkOf(r) === "p3");
      return { batchItemFailures: [{ itemIdentifier: p3?.dynamodb?.SequenceNumber ?? "" }] };
    };
    const { invocations, handler } = recorder(failAtP3);

    // act
    const poller = await poll(table, handler, fromTrimHorizon);
    await vi.waitFor(() => expect(invocations).toHaveLength(2), { timeout: 5_000, interval: 20 });
    await poller.idle();

    // assess
    expect(invocations.map((i) => i.pks)).toEqual([
      ["p1", "p2", "p3", "p4"],
      ["p3", "p4"],
    ]);
  }, 15_000);

  it("hands an always-failing batch to onFailure after maxRetryAttempts and moves on", async () => {
    // prepare
    const table = await streamTable("always-fails");
    await putItems(table, ["bad1", "bad2", "bad3"]);
    const { invocations, handler } = recorder((_, event) =>
      event.Records.some((r) => pkOf(r)?.startsWith("bad")),
    );
    const discarded: DiscardedRecords[] = [];
    const onFailure = async (info: DiscardedRecords) => void discarded.push(info);

    // act
    const poller = await poll(table, handler, {
      ...fromTrimHorizon,
      maxRetryAttempts: 2,
      bisectBatchOnFunctionError: false,
      onFailure,
    });
    await vi.waitFor(() => expect(discarded).toHaveLength(1), { timeout: 5_000, interval: 20 });
    await putItems(table, ["good1"]);
    await vi.waitFor(() => expect(invocations.at(-1)).toEqual({ pks: ["good1"], ok: true }), {
      timeout: 5_000,
      interval: 20,
    });
    await poller.idle();

    // assess
    expect(invocations.filter((i) => !i.ok)).toHaveLength(3);
    expect(discarded[0]?.records.map(pkOf)).toEqual(["bad1", "bad2", "bad3"]);
    expect(discarded[0]).toMatchObject({ attempts: 3, error: expect.stringContaining("projector failed") });
    expect(invocations).toHaveLength(4);
  }, 15_000);

  it("starts at LATEST, as the stacks' mapping does: records written before it started are not delivered", async () => {
    // prepare
    const table = await streamTable("latest");
    await putItems(table, ["before1", "before2"]);
    const { invocations, handler } = recorder(() => false);

    // act
    const poller = await poll(table, handler);
    await putItems(table, ["after1"]);
    await vi.waitFor(() => expect(invocations.flatMap((i) => i.pks)).toContain("after1"), {
      timeout: 5_000,
      interval: 20,
    });
    await poller.idle();

    // assess
    expect(invocations.flatMap((i) => i.pks)).toEqual(["after1"]);
  }, 15_000);

  it("with TRIM_HORIZON also delivers what the shard held before it started, in order", async () => {
    // prepare
    const table = await streamTable("trim-horizon");
    await putItems(table, ["before1", "before2"]);
    const { invocations, handler } = recorder(() => false);

    // act
    const poller = await poll(table, handler, fromTrimHorizon);
    await putItems(table, ["after1"]);
    await vi.waitFor(() => expect(invocations.flatMap((i) => i.pks)).toContain("after1"), {
      timeout: 5_000,
      interval: 20,
    });
    await poller.idle();

    // assess
    expect(invocations.flatMap((i) => i.pks)).toEqual(["before1", "before2", "after1"]);
  }, 15_000);

  it("refuses a table without a stream", async () => {
    // prepare: every stack table has a stream now (the global tables need one), so make one without
    await ddb.send(
      new CreateTableCommand({
        TableName: "no-stream",
        BillingMode: "PAY_PER_REQUEST",
        AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
        KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
      }),
    );

    // act
    const started = poll("no-stream", async () => undefined);

    // assess
    await expect(started).rejects.toThrow(/no stream/);
  });
});

describe("one Lambda reader per stream (a global table's stream, as AWS recommends)", () => {
  it("refuses a second mapping on a stream that has one, and takes it once the first one stops", async () => {
    // prepare
    const table = await streamTable("one-reader");
    const first = await poll(table, async () => undefined);

    // act
    const second = poll(table, async () => undefined);

    // assess
    await expect(second).rejects.toThrow(
      /already has a reader \(test-projector\).*one Lambda reader per shard/,
    );
    await first.stop();
    const after = await poll(table, async () => undefined);
    expect(after.healthy()).toBe(true);
  });

  it("lets the global table's own replication read beside the one mapping", async () => {
    // prepare
    const table = await streamTable("one-reader-and-replication");
    await poll(table, async () => undefined);

    // act
    const replication = await poll(table, async () => undefined, {
      name: "replicator",
      reader: "replication",
    });

    // assess
    expect(replication.healthy()).toBe(true);
    await expect(poll(table, async () => undefined, { reader: "replication" })).rejects.toThrow(
      /already has a reader \(replicator\)/,
    );
  });
});
