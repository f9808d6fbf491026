import { TransactionCanceledException, TransactWriteItemsCommand } from "@aws-sdk/client-dynamodb";
import { GetCommand, PutCommand, TransactGetCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { rejection, world } from "./fixtures";

describe("TransactWriteItems", () => {
  it("cancels everything when one condition fails, with a reason per item in item order", async () => {
    const { doc } = await world();
    await doc.send(new PutCommand({ TableName: "claims", Item: { id: "taken", owner: "me" } }));
    const err = await rejection(
      doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: "claims",
                Item: { id: "new" },
                ConditionExpression: "attribute_not_exists(id)",
              },
            },
            {
              Put: {
                TableName: "claims",
                Item: { id: "taken" },
                ConditionExpression: "attribute_not_exists(id)",
                ReturnValuesOnConditionCheckFailure: "ALL_OLD",
              },
            },
            {
              ConditionCheck: {
                TableName: "claims",
                Key: { id: "absent" },
                ConditionExpression: "attribute_exists(id)",
              },
            },
          ],
        }),
      ),
    );
    expect(err).toBeInstanceOf(TransactionCanceledException);
    expect(err.message).toBe(
      "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed, ConditionalCheckFailed]",
    );
    expect(err.CancellationReasons).toEqual([
      { Code: "None" },
      {
        Code: "ConditionalCheckFailed",
        Message: "The conditional request failed",
        Item: { id: { S: "taken" }, owner: { S: "me" } },
      },
      { Code: "ConditionalCheckFailed", Message: "The conditional request failed." },
    ]);
    const untouched = await doc.send(new GetCommand({ TableName: "claims", Key: { id: "new" } }));
    expect(untouched.Item).toBeUndefined();
  });

  it("refuses two actions on one item as a ValidationException before looking at conditions", async () => {
    const { doc } = await world();
    const err = await rejection(
      doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: "claims", Item: { id: "a" } } },
            {
              ConditionCheck: {
                TableName: "claims",
                Key: { id: "a" },
                ConditionExpression: "attribute_exists(id)",
              },
            },
          ],
        }),
      ),
    );
    expect(err.name).toBe("ValidationException");
    expect(err.message).toBe("Transaction request cannot include multiple operations on one item");
  });

  it("reports an update that cannot apply to its item as that item's ValidationError (AWS's documented reason)", async () => {
    const { doc } = await world();
    await doc.send(new PutCommand({ TableName: "claims", Item: { id: "a", v: "text" } }));
    const err = await rejection(
      doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: "claims", Item: { id: "b" } } },
            {
              Update: {
                TableName: "claims",
                Key: { id: "a" },
                UpdateExpression: "ADD v :one",
                ExpressionAttributeValues: { ":one": 1 },
              },
            },
          ],
        }),
      ),
    );
    expect(err.CancellationReasons).toEqual([
      { Code: "None" },
      { Code: "ValidationError", Message: "An operand in the update expression has an incorrect data type" },
    ]);
  });

  it("commits every action together when all conditions hold", async () => {
    const { doc } = await world();
    await doc.send(new PutCommand({ TableName: "claims", Item: { id: "a", n: 1 } }));
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: "claims",
              Key: { id: "a" },
              UpdateExpression: "SET n = n + :one",
              ConditionExpression: "n = :one",
              ExpressionAttributeValues: { ":one": 1 },
            },
          },
          {
            Put: { TableName: "claims", Item: { id: "b" }, ConditionExpression: "attribute_not_exists(id)" },
          },
        ],
      }),
    );
    const got = await doc.send(
      new TransactGetCommand({
        TransactItems: [
          { Get: { TableName: "claims", Key: { id: "a" } } },
          { Get: { TableName: "claims", Key: { id: "b" } } },
        ],
      }),
    );
    expect(got.Responses?.map((r) => r.Item)).toEqual([{ id: "a", n: 2 }, { id: "b" }]);
  });

  it("replays a committed ClientRequestToken without writing again and refuses it with other parameters", async () => {
    const { ddb, model } = await world();
    const writes: string[] = [];
    model.onChange((r) => writes.push(r.eventName));
    const input = {
      ClientRequestToken: "t1",
      TransactItems: [
        {
          Update: {
            TableName: "claims",
            Key: { id: { S: "a" } },
            UpdateExpression: "ADD n :one",
            ExpressionAttributeValues: { ":one": { N: "1" } },
          },
        },
      ],
    };
    await ddb.send(new TransactWriteItemsCommand(input));
    await ddb.send(new TransactWriteItemsCommand(input));
    const err = await rejection(
      ddb.send(
        new TransactWriteItemsCommand({
          ...input,
          TransactItems: [{ Put: { TableName: "claims", Item: { id: { S: "z" } } } }],
        }),
      ),
    );
    expect(writes).toEqual(["INSERT"]);
    expect(err.name).toBe("IdempotentParameterMismatchException");
  });
});
