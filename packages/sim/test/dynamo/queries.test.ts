import { QueryCommand as RawQuery } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, PutCommand, QueryCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { rejection, world } from "./fixtures";

async function seeded(): Promise<DynamoDBDocumentClient> {
  const { doc } = await world();
  const rows = [
    { pk: "p", sk: "1", gsi1pk: "g", gsi1sk: "b", lsk: 3 },
    { pk: "p", sk: "2", gsi1pk: "g", gsi1sk: "a", lsk: 1 },
    { pk: "p", sk: "3", gsi1pk: "g", gsi1sk: "c", lsk: 2, v: 5 },
    { pk: "p", sk: "4" },
    { pk: "q", sk: "1", gsi1pk: "g", gsi1sk: "d" },
  ];
  for (const Item of rows) await doc.send(new PutCommand({ TableName: "ledger", Item }));
  return doc;
}

describe("Query on a global secondary index", () => {
  it("pages in index order, each LastEvaluatedKey carrying the table's and the index's keys", async () => {
    const doc = await seeded();
    const q = {
      TableName: "ledger",
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :g",
      ExpressionAttributeValues: { ":g": "g" },
      Limit: 3,
    };
    const first = await doc.send(new QueryCommand(q));
    const second = await doc.send(new QueryCommand({ ...q, ExclusiveStartKey: first.LastEvaluatedKey }));
    expect(first.Items?.map((i) => i.gsi1sk)).toEqual(["a", "b", "c"]);
    expect(first.LastEvaluatedKey).toEqual({ pk: "p", sk: "3", gsi1pk: "g", gsi1sk: "c" });
    expect(second.Items?.map((i) => i.gsi1sk)).toEqual(["d"]);
    expect(second.LastEvaluatedKey).toBeUndefined();
  });

  it("leaves items without the index's keys out of it (sparse)", async () => {
    const doc = await seeded();
    const out = await doc.send(new ScanCommand({ TableName: "ledger", IndexName: "gsi1" }));
    expect(out.Count).toBe(4);
  });

  it("refuses ConsistentRead as DynamoDB does", async () => {
    const doc = await seeded();
    const err = await rejection(
      doc.send(
        new QueryCommand({
          TableName: "ledger",
          IndexName: "gsi1",
          KeyConditionExpression: "gsi1pk = :g",
          ExpressionAttributeValues: { ":g": "g" },
          ConsistentRead: true,
        }),
      ),
    );
    expect(err.message).toBe("Consistent reads are not supported on global secondary indexes");
  });

  it("counts without items when asked for Select COUNT", async () => {
    const doc = await seeded();
    const out = await doc.send(
      new QueryCommand({
        TableName: "ledger",
        IndexName: "gsi1",
        KeyConditionExpression: "gsi1pk = :g",
        ExpressionAttributeValues: { ":g": "g" },
        Select: "COUNT",
      }),
    );
    expect(out.Items).toBeUndefined();
    expect(out.Count).toBe(4);
  });
});

describe("Query on the table and a local secondary index", () => {
  it("applies the filter after Limit, as DynamoDB does", async () => {
    const doc = await seeded();
    const out = await doc.send(
      new QueryCommand({
        TableName: "ledger",
        KeyConditionExpression: "pk = :p",
        FilterExpression: "v = :v",
        ExpressionAttributeValues: { ":p": "p", ":v": 5 },
        Limit: 2,
      }),
    );
    expect(out.Items).toEqual([]);
    expect(out.ScannedCount).toBe(2);
    expect(out.LastEvaluatedKey).toEqual({ pk: "p", sk: "2" });
  });

  it("reads backwards from an exclusive start with the sort-key conditions", async () => {
    const doc = await seeded();
    const out = await doc.send(
      new QueryCommand({
        TableName: "ledger",
        KeyConditionExpression: "pk = :p AND sk <= :s",
        ExpressionAttributeValues: { ":p": "p", ":s": "3" },
        ScanIndexForward: false,
        ExclusiveStartKey: { pk: "p", sk: "3" },
      }),
    );
    expect(out.Items?.map((i) => i.sk)).toEqual(["2", "1"]);
  });

  it("orders an LSI by its number sort key and answers only the projected keys", async () => {
    const doc = await seeded();
    const out = await doc.send(
      new QueryCommand({
        TableName: "ledger",
        IndexName: "lsi1",
        KeyConditionExpression: "pk = :p AND lsk BETWEEN :a AND :b",
        ExpressionAttributeValues: { ":p": "p", ":a": 1, ":b": 2 },
      }),
    );
    expect(out.Items).toEqual([
      { pk: "p", sk: "2", lsk: 1 },
      { pk: "p", sk: "3", lsk: 2 },
    ]);
  });

  it("projects the attributes a ProjectionExpression names", async () => {
    const doc = await seeded();
    const out = await doc.send(
      new QueryCommand({
        TableName: "ledger",
        KeyConditionExpression: "pk = :p AND begins_with(sk, :s)",
        ExpressionAttributeValues: { ":p": "p", ":s": "3" },
        ProjectionExpression: "sk, v",
      }),
    );
    expect(out.Items).toEqual([{ sk: "3", v: 5 }]);
  });

  it("refuses a key condition that misses the partition key", async () => {
    const { ddb } = await world();
    const err = await rejection(
      ddb.send(
        new RawQuery({
          TableName: "ledger",
          KeyConditionExpression: "sk = :s",
          ExpressionAttributeValues: { ":s": { S: "1" } },
        }),
      ),
    );
    expect(err.message).toBe("Query condition missed key schema element");
  });
});

describe("Scan", () => {
  it("splits the table over segments with each item in exactly one", async () => {
    const doc = await seeded();
    const counts = await Promise.all(
      [0, 1, 2].map((Segment) =>
        doc.send(new ScanCommand({ TableName: "ledger", Segment, TotalSegments: 3 })),
      ),
    );
    const keys = counts.flatMap((c) => c.Items?.map((i) => `${i.pk}/${i.sk}`) ?? []).sort();
    expect(keys).toEqual(["p/1", "p/2", "p/3", "p/4", "q/1"]);
  });
});
