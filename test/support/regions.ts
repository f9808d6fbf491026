import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DeleteCommand, DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { CONTROL_KEY, loadTunables, type RegionRole } from "../../packages/core/src";
import {
  authorityRegion,
  authorityStore,
  CONTROL_TABLE,
  controlStore,
  regionDocumentClient,
} from "../../packages/local/src/region/control-table";
import type { LocalStack } from "../../packages/local/src/stack/start-stack";

/** Waits out the handlers' cache of the Region control, so that what a test wrote is what they act on. */
export async function controlSeen(): Promise<void> {
  await new Promise((r) => setTimeout(r, loadTunables(process.env).controlCacheMs + 100));
}

/**
 * Makes `active` the active Region at once, under a new epoch: in the authority, and in both Regions' own copies
 * (which only the EO_TEST_UNSAFE_TRUST_OWN_COPY counterfactual reads).
 */
export async function makeActive(stack: LocalStack, active: RegionRole, reason = "test"): Promise<number> {
  const authority = await authorityStore(stack.emulators).read();
  const epoch = (authority?.epoch ?? 0) + 1;
  const next = { active, epoch, updated_at: Date.now(), reason };
  await authorityStore(stack.emulators).write(next);
  for (const role of ["primary", "standby"] as const) await controlStore(stack.emulators, role).write(next);
  await controlSeen();
  return epoch;
}

/** Deletes the authority's record, as if nobody had ever written one. */
export async function dropControl(stack: LocalStack): Promise<void> {
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: stack.emulators.endpoints.dynamodb,
      region: authorityRegion(),
      credentials: { accessKeyId: "local", secretAccessKey: "local" },
    }),
  );
  await db.send(new DeleteCommand({ TableName: CONTROL_TABLE, Key: CONTROL_KEY }));
  await controlSeen();
}

/** Every item of one Region's tables, the control table's included, for asserting that a run changed nothing. */
export async function snapshotRegion(stack: LocalStack, role: RegionRole): Promise<Record<string, string[]>> {
  const r = stack.emulators.regions[role];
  const db = regionDocumentClient(stack.emulators, role);
  const out: Record<string, string[]> = {};
  for (const table of [CONTROL_TABLE, r.claimTable, r.ledgerTable, r.consumerTable]) {
    const items: string[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db.send(
        new ScanCommand({ TableName: table, ExclusiveStartKey: start, ConsistentRead: true }),
      );
      items.push(...(page.Items ?? []).map((i) => JSON.stringify(i, Object.keys(i).sort())));
      start = page.LastEvaluatedKey;
    } while (start);
    out[table] = items.sort();
  }
  return out;
}

/** The environment that points an operator script at this local stack, as `npm start`'s ports would. */
export function localScriptEnv(stack: LocalStack): NodeJS.ProcessEnv {
  const port = (url: string | undefined) => String(new URL(url ?? "http://127.0.0.1:0").port);
  return {
    API_PORT: port(stack.apiUrl),
    STANDBY_API_PORT: port(stack.standbyUrl),
    DYNAMODB_PORT: port(stack.emulators.endpoints.dynamodb),
    PSP_PORT: port(stack.psp.url),
    PSP_URL: stack.psp.url,
    PSP_API_KEY: "sk_local",
  };
}
