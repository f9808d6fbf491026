import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { DynamoRegionControlStore, initialControl, type RegionControl, type RegionRole } from "@eo/core";
import { LOCAL_CREDENTIALS } from "../stack/regions";
import type { Emulators } from "../stack/start-emulators";

/** The name of the control table: the authority's, and each Region's own copy (the counterfactual's). */
export const CONTROL_TABLE = "control";

/**
 * Where the local authority lives: a third DynamoDB Local Region, the witness of the stacks' MRSC control table
 * (us-east-2 beside us-east-1 and us-west-2: one MRSC Region set). Neither application Region holds it.
 */
export function authorityRegion(env: NodeJS.ProcessEnv = process.env): string {
  return env.WITNESS_REGION || "us-east-2";
}

type Emu = Pick<Emulators, "endpoints" | "regions">;

const clients = new Map<string, DynamoDBDocumentClient>();

// One client per database for the process, as a Lambda keeps its clients: building one resolves its whole
// configuration, which the `/_local` routes would otherwise pay on every request.
function documentClientIn(emu: Emu, region: string) {
  const key = `${emu.endpoints.dynamodb} ${region}`;
  let client = clients.get(key);
  if (!client) {
    client = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: emu.endpoints.dynamodb, region, credentials: LOCAL_CREDENTIALS }),
      { marshallOptions: { removeUndefinedValues: true } },
    );
    clients.set(key, client);
  }
  return client;
}

/** A document client on one local Region's DynamoDB database. */
export function regionDocumentClient(emu: Emu, role: RegionRole) {
  return documentClientIn(emu, emu.regions[role].region);
}

/** The authority, as the failover script and the `/_local` routes read and write it (from outside both Regions). */
export function authorityStore(emu: Emu) {
  return new DynamoRegionControlStore(documentClientIn(emu, authorityRegion()), CONTROL_TABLE);
}

/**
 * One Region's own copy of the control: what the Region believed before the authority. Nothing acts on it
 * (only the EO_TEST_UNSAFE_TRUST_OWN_COPY counterfactual); the failover script keeps it current where it can.
 */
export function controlStore(emu: Emu, role: RegionRole) {
  return new DynamoRegionControlStore(regionDocumentClient(emu, role), CONTROL_TABLE);
}

/** Creates the authority and each Region's copy, and writes the first control into each, as the stacks do at deploy. */
export async function createControlTables(
  emu: Emu,
  first: RegionControl = initialControl(Date.now()),
): Promise<void> {
  const places = [authorityRegion(), emu.regions.primary.region, emu.regions.standby.region];
  for (const region of places) {
    const ddb = new DynamoDBClient({
      endpoint: emu.endpoints.dynamodb,
      region,
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
    await new DynamoRegionControlStore(documentClientIn(emu, region), CONTROL_TABLE).write(first);
  }
}
