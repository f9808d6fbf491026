import {
  CreateTableCommand,
  type CreateTableCommandInput,
  type DynamoDBClient,
} from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { DynamoModel } from "../../src/dynamo/dynamo-model";
import { modelDynamoClient } from "../../src/dynamo/dynamo-model-handler";

/** A clock the test moves by hand. */
export class ManualClock {
  constructor(public ms = 1_700_000_000_000) {}
  now(): number {
    return this.ms;
  }
}

/** The ledger-like table the project deploys: pk/sk and a GSI gsi1 (gsi1pk, gsi1sk), all projected. */
export const LEDGER: CreateTableCommandInput = {
  TableName: "ledger",
  BillingMode: "PAY_PER_REQUEST",
  AttributeDefinitions: [
    { AttributeName: "pk", AttributeType: "S" },
    { AttributeName: "sk", AttributeType: "S" },
    { AttributeName: "gsi1pk", AttributeType: "S" },
    { AttributeName: "gsi1sk", AttributeType: "S" },
    { AttributeName: "lsk", AttributeType: "N" },
  ],
  KeySchema: [
    { AttributeName: "pk", KeyType: "HASH" },
    { AttributeName: "sk", KeyType: "RANGE" },
  ],
  GlobalSecondaryIndexes: [
    {
      IndexName: "gsi1",
      KeySchema: [
        { AttributeName: "gsi1pk", KeyType: "HASH" },
        { AttributeName: "gsi1sk", KeyType: "RANGE" },
      ],
      Projection: { ProjectionType: "ALL" },
    },
  ],
  LocalSecondaryIndexes: [
    {
      IndexName: "lsi1",
      KeySchema: [
        { AttributeName: "pk", KeyType: "HASH" },
        { AttributeName: "lsk", KeyType: "RANGE" },
      ],
      Projection: { ProjectionType: "KEYS_ONLY" },
    },
  ],
};

/** A claim-like table keyed by `id` alone. */
export const CLAIMS: CreateTableCommandInput = {
  TableName: "claims",
  BillingMode: "PAY_PER_REQUEST",
  AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
  KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
};

/** A model with the two tables, its SDK client and a DocumentClient over it. */
export async function world(options: { conditionsIgnored?: boolean } = {}): Promise<{
  clock: ManualClock;
  model: DynamoModel;
  ddb: DynamoDBClient;
  doc: DynamoDBDocumentClient;
}> {
  const clock = new ManualClock();
  const model = new DynamoModel({ clock, unsafe: { conditionsIgnored: options.conditionsIgnored } });
  const ddb = modelDynamoClient(model);
  await ddb.send(new CreateTableCommand(LEDGER));
  await ddb.send(new CreateTableCommand(CLAIMS));
  return { clock, model, ddb, doc: DynamoDBDocumentClient.from(ddb) };
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await p;
  } catch (e) {
    return e as Error & Record<string, unknown>;
  }
  throw new Error("expected a rejection, got a result");
}
