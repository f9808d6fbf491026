import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { rejection, world } from "./fixtures";

const STORED = {
  id: "a",
  n: 5,
  s: "hello",
  tags: new Set(["x", "y"]),
  arr: [1, 2],
  m: { deep: { v: "q" } },
  nul: null,
};

async function holds(
  condition: string,
  values?: Record<string, unknown>,
  names?: Record<string, string>,
): Promise<boolean> {
  const { doc } = await world();
  await doc.send(new PutCommand({ TableName: "claims", Item: STORED }));
  try {
    await doc.send(
      new PutCommand({
        TableName: "claims",
        Item: STORED,
        ConditionExpression: condition,
        ExpressionAttributeValues: values,
        ExpressionAttributeNames: names,
      }),
    );
    return true;
  } catch (e) {
    if (e instanceof ConditionalCheckFailedException) return false;
    throw e;
  }
}

describe("condition expressions", () => {
  it("compares numbers by value and strings by bytes", async () => {
    expect(await holds("n = :v", { ":v": 5 })).toBe(true);
    expect(await holds("n < :v", { ":v": 10 })).toBe(true);
    expect(await holds("s < :v", { ":v": "hellp" })).toBe(true);
    expect(await holds("s >= :v", { ":v": "i" })).toBe(false);
  });

  it("treats a missing attribute as false for every comparison but <>", async () => {
    expect(await holds("nope = :v", { ":v": 1 })).toBe(false);
    expect(await holds("nope < :v", { ":v": 1 })).toBe(false);
    expect(await holds("nope <> :v", { ":v": 1 })).toBe(true);
    expect(await holds("NOT nope = :v", { ":v": 1 })).toBe(true);
  });

  it("never orders values of different types", async () => {
    expect(await holds("n < :v", { ":v": "9" })).toBe(false);
    expect(await holds("n >= :v", { ":v": "9" })).toBe(false);
  });

  it("evaluates BETWEEN, IN, AND, OR, NOT and parentheses with the usual precedence", async () => {
    expect(await holds("n BETWEEN :a AND :b", { ":a": 5, ":b": 6 })).toBe(true);
    expect(await holds("n IN (:a, :b)", { ":a": 1, ":b": 5 })).toBe(true);
    expect(await holds("n = :a OR n = :b AND s = :c", { ":a": 5, ":b": 1, ":c": "no" })).toBe(true);
    expect(await holds("(n = :a OR n = :b) AND s = :c", { ":a": 5, ":b": 1, ":c": "no" })).toBe(false);
  });

  it("answers the functions on strings, sets, lists and types", async () => {
    expect(await holds("begins_with(s, :p)", { ":p": "he" })).toBe(true);
    expect(await holds("contains(s, :p)", { ":p": "ll" })).toBe(true);
    expect(await holds("contains(tags, :p)", { ":p": "y" })).toBe(true);
    expect(await holds("contains(arr, :p)", { ":p": 2 })).toBe(true);
    expect(await holds("attribute_type(tags, :t)", { ":t": "SS" })).toBe(true);
    expect(await holds("attribute_type(nul, :t)", { ":t": "NULL" })).toBe(true);
    expect(await holds("size(tags) = :two AND size(s) = :five", { ":two": 2, ":five": 5 })).toBe(true);
  });

  it("follows nested paths and aliases", async () => {
    expect(await holds("m.deep.#v = :q AND arr[1] = :two", { ":q": "q", ":two": 2 }, { "#v": "v" })).toBe(
      true,
    );
    expect(await holds("attribute_exists(m.deep.missing)")).toBe(false);
    expect(await holds("attribute_exists(arr[5])")).toBe(false);
  });

  it("checks the condition against the absent item as if every attribute were missing", async () => {
    const { doc } = await world();
    await doc.send(
      new PutCommand({
        TableName: "claims",
        Item: { id: "fresh" },
        ConditionExpression: "attribute_not_exists(id)",
      }),
    );
    const err = await rejection(
      doc.send(
        new PutCommand({
          TableName: "claims",
          Item: { id: "other" },
          ConditionExpression: "attribute_exists(id)",
        }),
      ),
    );
    expect(err).toBeInstanceOf(ConditionalCheckFailedException);
  });
});

describe("reserved words", () => {
  it("refuses a bare reserved word as an attribute name, as DynamoDB does", async () => {
    const { doc } = await world();
    const err = await rejection(
      doc.send(
        new PutCommand({
          TableName: "claims",
          Item: { id: "a" },
          ConditionExpression: "attribute_not_exists(status)",
        }),
      ),
    );
    expect(err.name).toBe("ValidationException");
    expect(err.message).toBe(
      "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: status",
    );
  });
});
