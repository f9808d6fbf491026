import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { world } from "./fixtures";

async function updated(start: Record<string, unknown>, expression: string, values?: Record<string, unknown>) {
  const { doc } = await world();
  await doc.send(new PutCommand({ TableName: "claims", Item: { id: "a", ...start } }));
  await doc.send(
    new UpdateCommand({
      TableName: "claims",
      Key: { id: "a" },
      UpdateExpression: expression,
      ExpressionAttributeValues: values,
    }),
  );
  const out = await doc.send(new GetCommand({ TableName: "claims", Key: { id: "a" } }));
  const { id: _id, ...rest } = out.Item ?? {};
  return rest;
}

describe("update expressions", () => {
  it("reads every right-hand side from the item as it was before the update", async () => {
    expect(await updated({ a: 1, b: 2 }, "SET a = b, b = a")).toEqual({ a: 2, b: 1 });
  });

  it("adds and subtracts, and sets only when absent with if_not_exists", async () => {
    expect(
      await updated({ n: 10 }, "SET n = n - :d, m = if_not_exists(m, :z) + :d", { ":d": 3, ":z": 100 }),
    ).toEqual({ n: 7, m: 103 });
    expect(await updated({ m: 1 }, "SET m = if_not_exists(m, :z)", { ":z": 100 })).toEqual({ m: 1 });
  });

  it("appends lists and writes past a list's end as an append", async () => {
    expect(await updated({ l: [1] }, "SET l = list_append(l, :more)", { ":more": [2, 3] })).toEqual({
      l: [1, 2, 3],
    });
    expect(await updated({ l: [1] }, "SET l[9] = :x", { ":x": 7 })).toEqual({ l: [1, 7] });
  });

  it("removes list elements by their original indexes and nested map keys", async () => {
    expect(await updated({ l: [0, 1, 2, 3], m: { a: 1, b: 2 } }, "REMOVE l[1], l[2], m.a")).toEqual({
      l: [0, 3],
      m: { b: 2 },
    });
  });

  it("adds to numbers and sets, and deletes set members down to removing the attribute", async () => {
    expect(
      await updated({ n: 1, s: new Set(["a"]) }, "ADD n :one, s :more", {
        ":one": 1,
        ":more": new Set(["b"]),
      }),
    ).toEqual({
      n: 2,
      s: new Set(["a", "b"]),
    });
    expect(
      await updated({ s: new Set(["a", "b"]) }, "DELETE s :all", { ":all": new Set(["a", "b"]) }),
    ).toEqual({});
  });

  it("answers UPDATED_OLD and ALL_NEW", async () => {
    const { doc } = await world();
    await doc.send(new PutCommand({ TableName: "claims", Item: { id: "a", v: 1, other: "x" } }));
    const old = await doc.send(
      new UpdateCommand({
        TableName: "claims",
        Key: { id: "a" },
        UpdateExpression: "SET v = :v",
        ExpressionAttributeValues: { ":v": 2 },
        ReturnValues: "UPDATED_OLD",
      }),
    );
    const all = await doc.send(
      new UpdateCommand({
        TableName: "claims",
        Key: { id: "a" },
        UpdateExpression: "SET v = :v",
        ExpressionAttributeValues: { ":v": 3 },
        ReturnValues: "ALL_NEW",
      }),
    );
    expect(old.Attributes).toEqual({ v: 1 });
    expect(all.Attributes).toEqual({ id: "a", v: 3, other: "x" });
  });
});
