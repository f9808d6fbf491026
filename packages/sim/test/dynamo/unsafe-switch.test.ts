import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { GetCommand, PutCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { rejection, world } from "./fixtures";

async function doubleClaim(conditionsIgnored: boolean): Promise<unknown> {
  const { doc } = await world({ conditionsIgnored });
  await doc.send(new PutCommand({ TableName: "claims", Item: { id: "pay-1", owner: "first" } }));
  try {
    await doc.send(
      new PutCommand({
        TableName: "claims",
        Item: { id: "pay-1", owner: "second" },
        ConditionExpression: "attribute_not_exists(id)",
      }),
    );
  } catch (e) {
    return e;
  }
  return (await doc.send(new GetCommand({ TableName: "claims", Key: { id: "pay-1" } }))).Item?.owner;
}

describe("the conditionsIgnored switch (a deliberately broken model)", () => {
  it("keeps the guard when off", async () => {
    expect(await doubleClaim(false)).toBeInstanceOf(ConditionalCheckFailedException);
  });

  it("lets the second claim overwrite the first when on", async () => {
    expect(await doubleClaim(true)).toBe("second");
  });

  it("passes every ConditionCheck of a transaction when on, but still refuses invalid requests", async () => {
    const { doc } = await world({ conditionsIgnored: true });
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            ConditionCheck: {
              TableName: "claims",
              Key: { id: "absent" },
              ConditionExpression: "attribute_exists(id)",
            },
          },
          { Put: { TableName: "claims", Item: { id: "b" } } },
        ],
      }),
    );
    expect((await doc.send(new GetCommand({ TableName: "claims", Key: { id: "b" } }))).Item).toEqual({
      id: "b",
    });
    const err = await rejection(
      doc.send(
        new PutCommand({ TableName: "claims", Item: { id: "c" }, ConditionExpression: "x = :undefined" }),
      ),
    );
    expect(err.name).toBe("ValidationException");
  });
});
