import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { loadConfig } from "@eo/core";
import { describe, expect, it } from "vitest";
import { CostMeter, type MeteredTable } from "../../bench/cost/cost-meter";
import { asInvocation, currentInvocation } from "../../packages/local/src/runtime/current-invocation";
import { useLocalStack } from "../support/local-stack";

useLocalStack();

describe("the cost meter, on DynamoDB Local's ledger table (its sparse sweep index gsi1)", () => {
  it("bills a row put into the index, a move out of it, a transaction twice and a failed condition once", async () => {
    // prepare
    const table = loadConfig().ledgerTable;
    const shape: MeteredTable = {
      name: table,
      global: true,
      keys: ["pk", "sk"],
      indexes: [{ name: "gsi1", keys: ["gsi1pk", "gsi1sk"], projection: "ALL" }],
    };
    const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
    const images = DynamoDBDocumentClient.from(new DynamoDBClient({}));
    const meter = new CostMeter(new Map([[table, shape]]), (_t, _k, op) => op, images);
    meter.attach(db);
    const key = { pk: `PAY#meter-${Date.now()}`, sk: "PAYMENT" };
    // act
    await db.send(
      new PutCommand({
        TableName: table,
        Item: { ...key, state: "UNKNOWN", gsi1pk: "SWEEP#UNKNOWN", gsi1sk: "1" },
      }),
    );
    await db.send(
      new UpdateCommand({
        TableName: table,
        Key: key,
        UpdateExpression: "SET #s = :s REMOVE gsi1pk, gsi1sk",
        ExpressionAttributeNames: { "#s": "state" },
        ExpressionAttributeValues: { ":s": "SUCCEEDED" },
      }),
    );
    await db.send(
      new TransactWriteCommand({
        TransactItems: [{ Put: { TableName: table, Item: { ...key, sk: "JOURNAL#1" } } }],
      }),
    );
    await expect(
      db.send(
        new DeleteCommand({ TableName: table, Key: key, ConditionExpression: "attribute_not_exists(pk)" }),
      ),
    ).rejects.toThrow();
    // assess
    const s = Object.fromEntries(meter.snapshot());
    expect(s.put).toMatchObject({ calls: 2, writeUnits: 1 + 2, indexUnits: 1, replicaUnits: 2 });
    expect(s.update).toMatchObject({ calls: 1, writeUnits: 1, indexUnits: 1 });
    expect(s.delete).toMatchObject({ calls: 1, writeUnits: 1, indexUnits: 0, replicaUnits: 0 });
    db.destroy();
    images.destroy();
  });

  it("files a request under the invocation that sent it, not under whatever ran beside it", async () => {
    // prepare: an API invocation and an event-source invocation interleaved, as the relay runs beside a request
    const table = loadConfig().ledgerTable;
    const shape: MeteredTable = { name: table, global: true, keys: ["pk", "sk"], indexes: [] };
    const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
    const images = DynamoDBDocumentClient.from(new DynamoDBClient({}));
    const meter = new CostMeter(
      new Map([[table, shape]]),
      () => "put",
      images,
      () => currentInvocation()?.source,
    );
    meter.attach(db);
    const put = (n: number) =>
      db.send(new PutCommand({ TableName: table, Item: { pk: `SRC#${Date.now()}-${n}`, sk: "X" } }));
    const pause = () => new Promise((r) => setTimeout(r, 5));
    // act
    await Promise.all([
      asInvocation({ functionName: "api", source: "api" }, async () => {
        await put(1);
        await pause();
        await put(2);
      }),
      asInvocation({ functionName: "relay", source: "event" }, async () => {
        await pause();
        await put(3);
      }),
      put(4),
    ]);
    // assess
    expect(meter.snapshot("api").get("put")?.calls).toBe(2);
    expect(meter.snapshot("event").get("put")?.calls).toBe(1);
    expect(meter.snapshot("other").get("put")?.calls).toBe(1);
    expect(meter.snapshot().get("put")?.calls).toBe(4);
    db.destroy();
    images.destroy();
  });
});
