import { ConditionalCheckFailedException, GetItemCommand, PutItemCommand } from "@aws-sdk/client-dynamodb";
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { rejection, world } from "./fixtures";

describe("item writes through the SDK's own transport", () => {
  it("stores a put and answers it to a consistent get", async () => {
    const { doc } = await world();
    await doc.send(new PutCommand({ TableName: "claims", Item: { id: "a", n: 1, tags: new Set(["x"]) } }));
    const out = await doc.send(
      new GetCommand({ TableName: "claims", Key: { id: "a" }, ConsistentRead: true }),
    );
    expect(out.Item).toEqual({ id: "a", n: 1, tags: new Set(["x"]) });
  });

  it("refuses a conditional put with the SDK's own ConditionalCheckFailedException and the old item", async () => {
    const { doc } = await world();
    await doc.send(new PutCommand({ TableName: "claims", Item: { id: "a", owner: "me" } }));
    const err = await rejection(
      doc.send(
        new PutCommand({
          TableName: "claims",
          Item: { id: "a", owner: "you" },
          ConditionExpression: "attribute_not_exists(id)",
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        }),
      ),
    );
    expect(err).toBeInstanceOf(ConditionalCheckFailedException);
    expect(err.message).toBe("The conditional request failed");
    expect(err.Item).toEqual({ id: { S: "a" }, owner: { S: "me" } });
  });

  it("leaves the old item out of the error unless asked", async () => {
    const { ddb } = await world();
    await ddb.send(new PutItemCommand({ TableName: "claims", Item: { id: { S: "a" } } }));
    const err = await rejection(
      ddb.send(
        new PutItemCommand({
          TableName: "claims",
          Item: { id: { S: "a" } },
          ConditionExpression: "attribute_not_exists(id)",
        }),
      ),
    );
    expect(err).toBeInstanceOf(ConditionalCheckFailedException);
    expect(err.Item).toBeUndefined();
  });

  it("updates with SET arithmetic, ADD and REMOVE, answering UPDATED_NEW", async () => {
    const { doc } = await world();
    await doc.send(new PutCommand({ TableName: "claims", Item: { id: "a", tat: 10, gone: true } }));
    const out = await doc.send(
      new UpdateCommand({
        TableName: "claims",
        Key: { id: "a" },
        UpdateExpression: "SET tat = tat + :i, expiration = :e ADD hits :one REMOVE gone",
        ExpressionAttributeValues: { ":i": 5, ":e": 99, ":one": 1 },
        ReturnValues: "UPDATED_NEW",
      }),
    );
    expect(out.Attributes).toEqual({ tat: 15, expiration: 99, hits: 1 });
    const item = await doc.send(new GetCommand({ TableName: "claims", Key: { id: "a" } }));
    expect(item.Item).toEqual({ id: "a", tat: 15, expiration: 99, hits: 1 });
  });

  it("creates the item from its key when an update finds none", async () => {
    const { doc } = await world();
    await doc.send(
      new UpdateCommand({
        TableName: "claims",
        Key: { id: "new" },
        UpdateExpression: "SET v = :v",
        ExpressionAttributeValues: { ":v": "x" },
      }),
    );
    const item = await doc.send(new GetCommand({ TableName: "claims", Key: { id: "new" } }));
    expect(item.Item).toEqual({ id: "new", v: "x" });
  });

  it("deletes under a condition and answers ALL_OLD", async () => {
    const { doc } = await world();
    await doc.send(new PutCommand({ TableName: "claims", Item: { id: "a", v: 1 } }));
    const out = await doc.send(
      new DeleteCommand({
        TableName: "claims",
        Key: { id: "a" },
        ConditionExpression: "v = :one",
        ExpressionAttributeValues: { ":one": 1 },
        ReturnValues: "ALL_OLD",
      }),
    );
    expect(out.Attributes).toEqual({ id: "a", v: 1 });
    const gone = await doc.send(new GetItemCommand({ TableName: "claims", Key: { id: { S: "a" } } }));
    expect(gone.Item).toBeUndefined();
  });
});
