import {
  BatchWriteCommand,
  DeleteCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import type { ChangeRecord } from "../../src/dynamo/dynamo-model";
import { executeOperation } from "../../src/dynamo/operations";
import { world } from "./fixtures";

describe("the change feed (onChange)", () => {
  it("records INSERT, MODIFY and REMOVE in write order with images and rising sequence numbers", async () => {
    const { doc, model, clock } = await world();
    const seen: ChangeRecord[] = [];
    model.onChange((r) => seen.push(r));
    await doc.send(new PutCommand({ TableName: "claims", Item: { id: "a", v: 1 } }));
    clock.ms += 1000;
    await doc.send(
      new UpdateCommand({
        TableName: "claims",
        Key: { id: "a" },
        UpdateExpression: "SET v = :v",
        ExpressionAttributeValues: { ":v": 2 },
      }),
    );
    await doc.send(new DeleteCommand({ TableName: "claims", Key: { id: "a" } }));
    expect(seen.map((r) => r.eventName)).toEqual(["INSERT", "MODIFY", "REMOVE"]);
    expect(seen[1]?.oldImage).toEqual({ id: { S: "a" }, v: { N: "1" } });
    expect(seen[1]?.newImage).toEqual({ id: { S: "a" }, v: { N: "2" } });
    expect(seen[1]?.atMs).toBe(clock.ms);
    expect(seen.map((r) => r.sequence)).toEqual([1n, 2n, 3n]);
    expect(seen[2]?.keys).toEqual({ id: { S: "a" } });
  });

  it("records nothing for a write that changes no data, as DynamoDB Streams (checked on DynamoDB Local)", async () => {
    const { doc, model } = await world();
    await doc.send(new PutCommand({ TableName: "claims", Item: { id: "a", v: 1 } }));
    const seen: string[] = [];
    model.onChange((r) => seen.push(r.eventName));
    await doc.send(new PutCommand({ TableName: "claims", Item: { id: "a", v: 1 } }));
    await doc.send(
      new UpdateCommand({
        TableName: "claims",
        Key: { id: "a" },
        UpdateExpression: "SET v = :v",
        ExpressionAttributeValues: { ":v": 1 },
      }),
    );
    await doc.send(new DeleteCommand({ TableName: "claims", Key: { id: "absent" } }));
    expect(seen).toEqual([]);
  });

  it("records a transaction's items in item order only once it commits", async () => {
    const { doc, model } = await world();
    const seen: string[] = [];
    model.onChange((r) => seen.push(`${r.eventName} ${JSON.stringify(r.keys.id ?? r.keys.pk)}`));
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: "claims", Item: { id: "z" } } },
          { Put: { TableName: "ledger", Item: { pk: "p", sk: "1" } } },
          { Put: { TableName: "claims", Item: { id: "a" } } },
        ],
      }),
    );
    await doc
      .send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: "claims", Item: { id: "q" } } },
            {
              ConditionCheck: {
                TableName: "claims",
                Key: { id: "nope" },
                ConditionExpression: "attribute_exists(id)",
              },
            },
          ],
        }),
      )
      .catch(() => undefined);
    await doc.send(
      new BatchWriteCommand({ RequestItems: { claims: [{ DeleteRequest: { Key: { id: "z" } } }] } }),
    );
    expect(seen).toEqual(['INSERT {"S":"z"}', 'INSERT {"S":"p"}', 'INSERT {"S":"a"}', 'REMOVE {"S":"z"}']);
  });

  it("keeps expired items readable until sweepExpired deletes them with REMOVE records", async () => {
    const { doc, model, clock } = await world();
    executeOperation(model, "UpdateTimeToLive", {
      TableName: "claims",
      TimeToLiveSpecification: { AttributeName: "expiration", Enabled: true },
    });
    const nowS = Math.floor(clock.ms / 1000);
    await doc.send(new PutCommand({ TableName: "claims", Item: { id: "old", expiration: nowS - 1 } }));
    await doc.send(new PutCommand({ TableName: "claims", Item: { id: "live", expiration: nowS + 60 } }));
    const seen: ChangeRecord[] = [];
    model.onChange((r) => seen.push(r));
    expect(
      executeOperation(model, "GetItem", { TableName: "claims", Key: { id: { S: "old" } } }).Item,
    ).toBeDefined();
    expect(model.sweepExpired()).toBe(1);
    expect(seen.map((r) => [r.eventName, r.keys.id, r.byTtl])).toEqual([["REMOVE", { S: "old" }, true]]);
    expect(
      executeOperation(model, "GetItem", { TableName: "claims", Key: { id: { S: "old" } } }).Item,
    ).toBeUndefined();
  });
});
