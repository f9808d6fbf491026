import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { DynamoRegionControlStore, initialControl, type RegionControl, type RegionRole } from "@eo/core";
import { LOCAL_CREDENTIALS } from "../stack/regions";
import type { Emulators } from "../stack/start-emulators";

/** The name of each Region's control table, as the stacks name its role. */
export const CONTROL_TABLE = "control";

/** A document client on one local Region's DynamoDB database. */
export function regionDocumentClient(emu: Pick<Emulators, "endpoints" | "regions">, role: RegionRole) {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: emu.endpoints.dynamodb,
      region: emu.regions[role].region,
      credentials: LOCAL_CREDENTIALS,
    }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
}

/** One Region's copy of the Region control, as the failover script reads and writes it. */
export function controlStore(emu: Pick<Emulators, "endpoints" | "regions">, role: RegionRole) {
  return new DynamoRegionControlStore(regionDocumentClient(emu, role), CONTROL_TABLE);
}

/**
 * Creates each Region's control table (not a global table: each Region keeps a copy of its own, readable while
 * the other is down) and writes the first control into both, as the stacks do at deploy.
 */
export async function createControlTables(
  emu: Pick<Emulators, "endpoints" | "regions">,
  first: RegionControl = initialControl(Date.now()),
): Promise<void> {
  for (const role of ["primary", "standby"] as const) {
    const ddb = new DynamoDBClient({
      endpoint: emu.endpoints.dynamodb,
      region: emu.regions[role].region,
      credentials: LOCAL_CREDENTIALS,
    });
    try {
      await ddb.send(
        new CreateTableCommand({
          TableName: CONTROL_TABLE,
          BillingMode: "PAY_PER_REQUEST",
          AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
          KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
        }),
      );
    } finally {
      ddb.destroy();
    }
    await controlStore(emu, role).write(first);
  }
}
