import { describe, expect, it } from "vitest";
import type { DynamoModel } from "../../src/dynamo/dynamo-model";
import { executeOperation } from "../../src/dynamo/operations";
import { world } from "./fixtures";

type Input = Record<string, unknown>;

/** The outcome of one request on the model: its reply, or the error's name and message (and reasons). */
function outcome(model: DynamoModel, operation: string, input: Input): Input {
  try {
    return { ok: executeOperation(model, operation, input) };
  } catch (e) {
    const err = e as Error & { extra?: Input };
    return { error: err.name, message: err.message, ...(err.extra ?? {}) };
  }
}

const KEY = { pk: { S: "P0" }, sk: { S: "A" } };
const invalidPath = {
  error: "ValidationException",
  message: "The document path provided in the update expression is invalid for update",
};

describe("refusals DynamoDB Local makes (found by the differential corpus)", () => {
  it("refuses REMOVE and DELETE under a missing map, and creates no item", async () => {
    // prepare
    const { model } = await world();
    const update = (expression: string, values?: Input) => ({
      TableName: "ledger",
      Key: KEY,
      UpdateExpression: expression,
      ...(values ? { ExpressionAttributeValues: values } : {}),
    });

    // act
    const removed = outcome(model, "UpdateItem", update("REMOVE m.a"));
    const deleted = outcome(model, "UpdateItem", update("DELETE m.tags :s", { ":s": { SS: ["a"] } }));
    const got = outcome(model, "GetItem", { TableName: "ledger", Key: KEY });

    // assess
    expect(removed).toEqual(invalidPath);
    expect(deleted).toEqual(invalidPath);
    expect(got).toEqual({ ok: {} });
  });

  it("refuses a path compared with itself, but not two values or two sizes", async () => {
    // prepare
    const { model } = await world();
    const scan = (filter: string, values?: Input) =>
      outcome(model, "Scan", {
        TableName: "ledger",
        FilterExpression: filter,
        ...(values ? { ExpressionAttributeValues: values } : {}),
      });

    // act
    const same = scan("a.b BETWEEN :v AND a.b", { ":v": { N: "1" } });
    const values = scan(":v = :v", { ":v": { N: "1" } });
    const sizes = scan("size(a) = size(a)");

    // assess
    expect(same.message).toBe(
      "Invalid FilterExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: BETWEEN, first operand: [a, b]",
    );
    expect(values).toMatchObject({ ok: { Count: 0 } });
    expect(sizes).toMatchObject({ ok: { Count: 0 } });
  });

  it("answers UPDATED_OLD with the attributes whose updated path existed, whole", async () => {
    // prepare
    const { model } = await world();
    const item = { ...KEY, l: { L: [{ N: "1" }] }, m: { M: { x: { N: "1" }, y: { N: "2" } } } };
    outcome(model, "PutItem", { TableName: "ledger", Item: item });
    const update = (expression: string) =>
      outcome(model, "UpdateItem", {
        TableName: "ledger",
        Key: KEY,
        UpdateExpression: expression,
        ReturnValues: "UPDATED_OLD",
      });

    // act
    const nothingRemoved = update("REMOVE l[5]");
    const nestedRemoved = update("REMOVE m.x");

    // assess
    expect(nothingRemoved).toEqual({ ok: {} });
    expect(nestedRemoved).toEqual({ ok: { Attributes: { m: item.m } } });
  });

  it("echoes a BETWEEN bound as the request wrote the number", async () => {
    // prepare
    const { model } = await world();

    // act
    const refused = outcome(model, "Scan", {
      TableName: "ledger",
      FilterExpression: "a BETWEEN :lo AND :hi",
      ExpressionAttributeValues: { ":lo": { N: "1E+2" }, ":hi": { N: "1.50" } },
    });

    // assess
    expect(refused.message).toBe(
      "Invalid FilterExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:1E+2}, upper bound operand: AttributeValue: {N:1.50}",
    );
  });

  it("refuses an index key that is not a scalar as invalid input, inside a transaction too", async () => {
    // prepare
    const { model } = await world();
    const put = { TableName: "ledger", Item: { ...KEY, gsi1pk: { BOOL: true } } };

    // act
    const alone = outcome(model, "PutItem", put);
    const inTransaction = outcome(model, "TransactWriteItems", { TransactItems: [{ Put: put }] });

    // assess
    const refusal = { error: "ValidationException", message: "Invalid attribute value type" };
    expect(alone).toEqual(refusal);
    expect(inTransaction).toEqual(refusal);
  });

  it("stops a transaction at an update failing on its item, leaving a later action's input unchecked", async () => {
    // prepare
    const { model } = await world();
    const failing = { TableName: "ledger", Key: KEY, UpdateExpression: "SET n = n + :one" };
    const invalid = {
      TableName: "ledger",
      Item: { pk: { S: "P0" }, sk: { S: "B" }, gsi1pk: { NULL: true } },
    };

    // act
    const answer = outcome(model, "TransactWriteItems", {
      TransactItems: [
        { Update: { ...failing, ExpressionAttributeValues: { ":one": { N: "1" } } } },
        { Put: invalid },
      ],
    });

    // assess
    expect(answer).toMatchObject({
      error: "TransactionCanceledException",
      CancellationReasons: [
        {
          Code: "ValidationError",
          Message: "The provided expression refers to an attribute that does not exist in the item",
        },
        { Code: "None" },
      ],
    });
  });

  it("reports, of several failing update actions, the one DynamoDB Local evaluates last", async () => {
    // prepare: members is a string set, version is missing
    const { model } = await world();
    outcome(model, "PutItem", { TableName: "ledger", Item: { ...KEY, members: { SS: ["a"] } } });
    const update = (expression: string) =>
      outcome(model, "UpdateItem", {
        TableName: "ledger",
        Key: KEY,
        UpdateExpression: expression,
        ExpressionAttributeValues: { ":n": { N: "1" } },
      });

    // act: Local evaluates members after version, whatever their order in the expression
    const addLast = update("SET version = version + :n ADD members :n");
    const addFirst = update("ADD members :n SET version = version + :n");

    // assess
    const wrongType = "An operand in the update expression has an incorrect data type";
    expect(addLast.message).toBe(wrongType);
    expect(addFirst.message).toBe(wrongType);
  });
});
