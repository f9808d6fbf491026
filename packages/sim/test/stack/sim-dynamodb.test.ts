import { CreateTableCommand, DynamoDBClient, PutItemCommand } from "@aws-sdk/client-dynamodb";
import type { DynamoDBStreamEvent } from "aws-lambda";
import { afterEach, describe, expect, it } from "vitest";
import { startStreamPoller } from "../../../local/src/pollers/stream-poller";
import { SimDynamoDb } from "../../src/stack/sim-dynamodb";
import { installInProcessNet } from "../../src/transport/in-process-net";
import { serveModel } from "../../src/transport/serve-model";

const credentials = { accessKeyId: "local", secretAccessKey: "local" };

describe("the local runtime's stream mapping on the simulated DynamoDB", () => {
  let undo: (() => void) | undefined;
  afterEach(() => undo?.());

  it("delivers each item's changes in write order, per Region, through the runtime's own poller", async () => {
    // prepare
    undo = installInProcessNet();
    const db = new SimDynamoDb({ now: () => Date.now() });
    const server = serveModel((req) => db.route(req));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const client = new DynamoDBClient({ endpoint, region: "eu-west-1", credentials });
    await client.send(
      new CreateTableCommand({
        TableName: "ledger",
        KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
        AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
        BillingMode: "PAY_PER_REQUEST",
        StreamSpecification: { StreamEnabled: true, StreamViewType: "NEW_AND_OLD_IMAGES" },
      }),
    );
    const seen: string[] = [];
    const poller = await startStreamPoller({
      name: "relay",
      endpoint,
      region: "eu-west-1",
      tableName: "ledger",
      pollIntervalMs: 10,
      handler: async (event: DynamoDBStreamEvent) => {
        for (const r of event.Records)
          seen.push(`${r.eventName}:${r.dynamodb?.NewImage?.pk?.S}=${r.dynamodb?.NewImage?.n?.N}`);
      },
    });
    // act
    for (const [pk, n] of [
      ["a", "1"],
      ["b", "1"],
      ["a", "2"],
    ] as const)
      await client.send(new PutItemCommand({ TableName: "ledger", Item: { pk: { S: pk }, n: { N: n } } }));
    await poller.idle();
    await poller.stop();
    await new Promise((r) => server.close(r));
    // assess
    expect(seen).toEqual(["INSERT:a=1", "INSERT:b=1", "MODIFY:a=2"]);
    expect(db.region("eu-central-1").dynamo.tables.size).toBe(0);
  });
});
