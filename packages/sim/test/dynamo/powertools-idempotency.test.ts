import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  makeIdempotent,
} from "@aws-lambda-powertools/idempotency";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import { describe, expect, it } from "vitest";
import { executeOperation } from "../../src/dynamo/operations";
import { world } from "./fixtures";

describe("Powertools idempotency's DynamoDB persistence layer on the model", () => {
  it("runs the function once and answers the stored result to the repeat", async () => {
    const { ddb, model } = await world();
    const persistenceStore = new DynamoDBPersistenceLayer({ tableName: "claims", awsSdkV3Client: ddb });
    let runs = 0;
    const charge = makeIdempotent(
      async (p: { amount: number }) => {
        runs += 1;
        return { charged: p.amount, run: runs };
      },
      { persistenceStore, config: new IdempotencyConfig({}) },
    );
    const first = await charge({ amount: 10 });
    const second = await charge({ amount: 10 });
    expect(second).toEqual(first);
    expect(runs).toBe(1);
    const stored = executeOperation(model, "Scan", { TableName: "claims" }).Items as Array<
      Record<string, { S?: string }>
    >;
    expect(stored.map((i) => i.status?.S)).toEqual(["COMPLETED"]);
  });

  it("refuses a concurrent repeat while the first is in progress (the conditional put's ALL_OLD record)", async () => {
    const { ddb } = await world();
    const persistenceStore = new DynamoDBPersistenceLayer({ tableName: "claims", awsSdkV3Client: ddb });
    let release: () => void = () => {};
    const slow = makeIdempotent(
      async (_p: { k: string }) => {
        await new Promise<void>((r) => {
          release = r;
        });
        return "done";
      },
      { persistenceStore, config: new IdempotencyConfig({}) },
    );
    const first = slow({ k: "x" });
    await new Promise((r) => setTimeout(r, 10));
    await expect(slow({ k: "x" })).rejects.toBeInstanceOf(IdempotencyAlreadyInProgressError);
    release();
    expect(await first).toBe("done");
  });
});
