import { startSimStack } from "../src/stack/start-sim-stack";
import { createWorld } from "../src/world/index";

const world = createWorld({ seed: 7, startMs: Date.UTC(2026, 11, 6), realIo: "await" });
const stack = await world.run(() => startSimStack(world.clock, { standby: true, resolverEveryMs: 0, sweepsEveryMs: 0 }));
const p = stack.models.dynamodb.region(stack.emulators.regions.primary.region).dynamo;
const s = stack.models.dynamodb.region(stack.emulators.regions.standby.region).dynamo;
const table = stack.emulators.regions.primary.ledgerTable;
await world.run(async () => {
  const { DynamoDBClient, PutItemCommand } = await import("@aws-sdk/client-dynamodb");
  const c = new DynamoDBClient({ endpoint: stack.emulators.endpoints.dynamodb, region: stack.emulators.regions.primary.region, credentials: { accessKeyId: "local", secretAccessKey: "local" } });
  await c.send(new PutItemCommand({ TableName: table, Item: { pk: { S: "X#1" }, sk: { S: "Y" }, v: { N: "1" } } }));
});
await world.runFor(3_000);
console.log("primary", p.tables.get(table)?.items.size, "standby", s.tables.get(table)?.items.size, JSON.stringify(stack.replicator?.status()));
await world.run(() => stack.stop());
world.uninstall();
