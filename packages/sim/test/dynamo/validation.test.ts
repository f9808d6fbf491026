import { GetItemCommand, PutItemCommand, UpdateItemCommand } from "@aws-sdk/client-dynamodb";
import { describe, expect, it } from "vitest";
import { rejection, world } from "./fixtures";

async function refusal(
  send: (ddb: Awaited<ReturnType<typeof world>>["ddb"]) => Promise<unknown>,
): Promise<string> {
  const { ddb } = await world();
  const err = await rejection(send(ddb));
  expect(err.name).toBe("ValidationException");
  return err.message;
}

const KEY = { id: { S: "a" } };

describe("request validation", () => {
  it("refuses unused and undefined expression names and values", async () => {
    expect(
      await refusal((d) =>
        d.send(
          new PutItemCommand({
            TableName: "claims",
            Item: KEY,
            ConditionExpression: "attribute_not_exists(id)",
            ExpressionAttributeValues: { ":x": { S: "1" } },
          }),
        ),
      ),
    ).toBe("Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}");
    expect(
      await refusal((d) =>
        d.send(
          new PutItemCommand({
            TableName: "claims",
            Item: KEY,
            ConditionExpression: "attribute_not_exists(#n)",
            ExpressionAttributeNames: { "#n": "id", "#m": "x" },
          }),
        ),
      ),
    ).toBe("Value provided in ExpressionAttributeNames unused in expressions: keys: {#m}");
    expect(
      await refusal((d) =>
        d.send(new PutItemCommand({ TableName: "claims", Item: KEY, ConditionExpression: "v = :nope" })),
      ),
    ).toBe(
      "Invalid ConditionExpression: An expression attribute value used in expression is not defined; attribute value: :nope",
    );
  });

  it("refuses overlapping paths and key updates in an update expression", async () => {
    const values = { ":v": { S: "x" } };
    expect(
      await refusal((d) =>
        d.send(
          new UpdateItemCommand({
            TableName: "claims",
            Key: KEY,
            UpdateExpression: "SET a = :v, a.b = :v",
            ExpressionAttributeValues: values,
          }),
        ),
      ),
    ).toBe(
      "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]",
    );
    expect(
      await refusal((d) =>
        d.send(
          new UpdateItemCommand({
            TableName: "claims",
            Key: KEY,
            UpdateExpression: "SET id = :v",
            ExpressionAttributeValues: values,
          }),
        ),
      ),
    ).toBe(
      "One or more parameter values were invalid: Cannot update attribute id. This attribute is part of the key",
    );
  });

  it("refuses empty sets, duplicate members and wrongly typed or extra keys", async () => {
    expect(
      await refusal((d) =>
        d.send(new PutItemCommand({ TableName: "claims", Item: { ...KEY, s: { SS: [] } } })),
      ),
    ).toBe("One or more parameter values were invalid: An string set  may not be empty");
    expect(
      await refusal((d) =>
        d.send(new PutItemCommand({ TableName: "claims", Item: { ...KEY, s: { NS: ["1", "1.0"] } } })),
      ),
    ).toBe("One or more parameter values were invalid: Input collection [1, 1.0] contains duplicates");
    expect(
      await refusal((d) => d.send(new GetItemCommand({ TableName: "claims", Key: { id: { N: "1" } } }))),
    ).toBe("The provided key element does not match the schema");
    expect(
      await refusal((d) =>
        d.send(new GetItemCommand({ TableName: "claims", Key: { ...KEY, x: { S: "1" } } })),
      ),
    ).toBe("The number of conditions on the keys is invalid");
  });

  it("refuses an ADD of a string and arithmetic on an attribute that is not there", async () => {
    expect(
      await refusal((d) =>
        d.send(
          new UpdateItemCommand({
            TableName: "claims",
            Key: KEY,
            UpdateExpression: "ADD n :v",
            ExpressionAttributeValues: { ":v": { S: "x" } },
          }),
        ),
      ),
    ).toBe(
      "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND",
    );
    expect(
      await refusal((d) =>
        d.send(
          new UpdateItemCommand({
            TableName: "claims",
            Key: KEY,
            UpdateExpression: "SET n = missing + :v",
            ExpressionAttributeValues: { ":v": { N: "1" } },
          }),
        ),
      ),
    ).toBe("The provided expression refers to an attribute that does not exist in the item");
  });

  it("refuses an item over 400 KB", async () => {
    const big = "x".repeat(400 * 1024);
    expect(
      await refusal((d) =>
        d.send(new PutItemCommand({ TableName: "claims", Item: { ...KEY, big: { S: big } } })),
      ),
    ).toBe("Item size has exceeded the maximum allowed size");
  });

  it("names what the model does not support instead of accepting it silently", async () => {
    const { ddb } = await world();
    const err = await rejection(
      ddb.send(new PutItemCommand({ TableName: "claims", Item: KEY, Expected: { id: { Exists: false } } })),
    );
    expect(err.name).toBe("ModelUnsupportedException");
    expect(err.message).toContain("Expected");
  });
});
