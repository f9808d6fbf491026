import { randomUUID } from "node:crypto";
import {
  type AttributeValue,
  CreateTableCommand,
  DeleteItemCommand,
  DescribeTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  UpdateTimeToLiveCommand,
} from "@aws-sdk/client-dynamodb";
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as SdkRecord,
} from "@aws-sdk/client-dynamodb-streams";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { ItemChange, Role } from "../../../packages/local/src/replication/replication-types";
import {
  type Replicator,
  type ReplicatorOptions,
  startReplicator,
} from "../../../packages/local/src/replication/start-replicator";
import { LOCAL_CREDENTIALS } from "../../../packages/local/src/stack/regions";
import { type Emulators, startEmulators } from "../../../packages/local/src/stack/start-emulators";

/** The lag the tests use unless they test the default: short, so that the files stay fast. */
export const TEST_LAG_MS = 200;
/** How often the replicator and the tests poll. */
export const POLL_MS = 25;

type Jitter = (change: { table: string; keys: Record<string, unknown>; from: Role }) => number;

/** Two local Regions in one DynamoDB Local, and clients for each. */
export interface TwoRegions {
  emu: Emulators;
  ddb: Record<Role, DynamoDBClient>;
  /** The file's replicator, over the real global tables: the ledger and the consumer table. */
  replicator: Replicator;
  /** The per-item jitter of the file's replicator; tests set it, every test starts with none. */
  jitter: { fn: Jitter };
  /** The test seam of the file's replicator: runs before each apply. */
  beforeApply: { fn: ((change: ItemChange) => Promise<void>) | undefined };
}

/** Starts the emulators and one replicator for the test file; each test starts with it resumed, both Regions up. */
export function useTwoRegions(): () => TwoRegions {
  let ctx: TwoRegions | undefined;
  beforeAll(async () => {
    const emu = await startEmulators();
    const ddb = {
      primary: client(emu, emu.regions.primary.region),
      standby: client(emu, emu.regions.standby.region),
    };
    await warmUp(ddb);
    const jitter: TwoRegions["jitter"] = { fn: () => 0 };
    const beforeApply: TwoRegions["beforeApply"] = { fn: undefined };
    const { ledgerTable, consumerTable } = emu.regions.primary;
    const replicator = await startReplicator({
      ...replicatorBasics(emu),
      tables: [ledgerTable, consumerTable],
      lagMs: TEST_LAG_MS,
      jitterMs: (c) => jitter.fn(c),
      beforeApply: async (c) => beforeApply.fn?.(c),
    });
    ctx = { emu, ddb, replicator, jitter, beforeApply };
  }, 120_000);
  afterEach(async () => {
    if (!ctx) return;
    ctx.replicator.resume();
    ctx.replicator.recoverRegion("primary");
    ctx.replicator.recoverRegion("standby");
    await ctx.replicator.awaitIdle(10_000);
    ctx.replicator.setLag(TEST_LAG_MS);
    ctx.jitter.fn = () => 0;
    ctx.beforeApply.fn = undefined;
  }, 20_000);
  afterAll(async () => {
    await ctx?.replicator.stop();
    for (const c of Object.values(ctx?.ddb ?? {})) c.destroy();
    await ctx?.emu.stop();
  }, 30_000);
  return () => {
    if (!ctx) throw new Error("the two Regions are not running");
    return ctx;
  };
}

/** DynamoDB Local's first writes take ~100 ms more than later ones; the timing tests should not measure that. */
async function warmUp(ddb: Record<Role, DynamoDBClient>): Promise<void> {
  const table = await freshTable(ddb);
  for (const role of ["primary", "standby"] as const) {
    for (let i = 0; i < 5; i++) await put(ddb[role], table, { pk: { S: `warm-up-${i}` }, sk: { S: "item" } });
  }
}

/** The options every replicator in these tests shares. */
export function replicatorBasics(
  emu: Emulators,
): Pick<ReplicatorOptions, "endpoint" | "regions" | "pollIntervalMs"> {
  return {
    endpoint: emu.endpoints.dynamodb,
    regions: { primary: emu.regions.primary.region, standby: emu.regions.standby.region },
    pollIntervalMs: POLL_MS,
  };
}

function client(emu: Emulators, region: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint: emu.endpoints.dynamodb, region, credentials: LOCAL_CREDENTIALS });
}

/** A key no other test uses. */
export function freshKey(label: string): { pk: AttributeValue; sk: AttributeValue } {
  return { pk: { S: `${label}#${randomUUID()}` }, sk: { S: "item" } };
}

type Key = Record<string, AttributeValue>;

/** Puts an item in one Region's table. */
export async function put(ddb: DynamoDBClient, table: string, item: Key): Promise<void> {
  await ddb.send(new PutItemCommand({ TableName: table, Item: item }));
}

/** Deletes an item in one Region's table. */
export async function remove(ddb: DynamoDBClient, table: string, key: Key): Promise<void> {
  await ddb.send(new DeleteItemCommand({ TableName: table, Key: key }));
}

/** Sets one attribute of an item, leaving the rest as it is. */
export async function setAttribute(
  ddb: DynamoDBClient,
  table: string,
  key: Key,
  name: string,
  value: AttributeValue,
) {
  await ddb.send(
    new UpdateItemCommand({
      TableName: table,
      Key: key,
      UpdateExpression: "SET #n = :v",
      ExpressionAttributeNames: { "#n": name },
      ExpressionAttributeValues: { ":v": value },
    }),
  );
}

/** Puts several items in one TransactWriteItems. */
export async function putTogether(ddb: DynamoDBClient, table: string, items: Key[]): Promise<void> {
  await ddb.send(
    new TransactWriteItemsCommand({
      TransactItems: items.map((Item) => ({ Put: { TableName: table, Item } })),
    }),
  );
}

/** Reads an item with a strongly consistent read (undefined when absent). */
export async function get(ddb: DynamoDBClient, table: string, key: Key): Promise<Key | undefined> {
  return (await ddb.send(new GetItemCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;
}

/** The value of the item's `v` attribute, or "absent". */
export async function valueIn(ddb: DynamoDBClient, table: string, key: Key): Promise<string> {
  const item = await get(ddb, table, key);
  return item ? (item.v?.S ?? JSON.stringify(item)) : "absent";
}

/** Polls until `check` holds; returns when it did (epoch ms), or throws after `timeoutMs`. */
export async function when(
  check: () => Promise<boolean>,
  timeoutMs = 5000,
  what = "condition",
): Promise<number> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return Date.now();
    if (Date.now() > until) throw new Error(`${what} did not hold within ${timeoutMs} ms`);
    await sleep(5);
  }
}

/** Waits `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Every record one Region's stream of the table holds for one item, oldest first. */
export async function streamOf(emu: Emulators, role: Role, table: string, key: Key): Promise<SdkRecord[]> {
  const config = {
    endpoint: emu.endpoints.dynamodb,
    region: emu.regions[role].region,
    credentials: LOCAL_CREDENTIALS,
  };
  const ddb = new DynamoDBClient(config);
  const streams = new DynamoDBStreamsClient(config);
  try {
    const { Table } = await ddb.send(new DescribeTableCommand({ TableName: table }));
    const StreamArn = Table?.LatestStreamArn;
    const described = await streams.send(new DescribeStreamCommand({ StreamArn }));
    const out: SdkRecord[] = [];
    for (const { ShardId } of described.StreamDescription?.Shards ?? []) {
      const at = { StreamArn, ShardId, ShardIteratorType: "TRIM_HORIZON" as const };
      let iterator = (await streams.send(new GetShardIteratorCommand(at))).ShardIterator;
      while (iterator) {
        const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
        out.push(...(page.Records ?? []));
        if ((page.Records ?? []).length === 0) break;
        iterator = page.NextShardIterator;
      }
    }
    const wanted = JSON.stringify(key.pk);
    return out.filter((r) => JSON.stringify(r.dynamodb?.Keys?.pk) === wanted);
  } finally {
    ddb.destroy();
    streams.destroy();
  }
}

/** A pk/sk table with a NEW_AND_OLD_IMAGES stream in both Regions, TTL on `expires_at` where asked. */
export async function freshTable(ddb: Record<Role, DynamoDBClient>, ttlIn: Role[] = []): Promise<string> {
  const name = `t-${randomUUID().slice(0, 8)}`;
  for (const role of ["primary", "standby"] as const) {
    await ddb[role].send(
      new CreateTableCommand({
        TableName: name,
        BillingMode: "PAY_PER_REQUEST",
        AttributeDefinitions: [
          { AttributeName: "pk", AttributeType: "S" },
          { AttributeName: "sk", AttributeType: "S" },
        ],
        KeySchema: [
          { AttributeName: "pk", KeyType: "HASH" },
          { AttributeName: "sk", KeyType: "RANGE" },
        ],
        StreamSpecification: { StreamEnabled: true, StreamViewType: "NEW_AND_OLD_IMAGES" },
      }),
    );
    if (ttlIn.includes(role)) {
      await ddb[role].send(
        new UpdateTimeToLiveCommand({
          TableName: name,
          TimeToLiveSpecification: { AttributeName: "expires_at", Enabled: true },
        }),
      );
    }
  }
  return name;
}
